// Runs the auth checks (defined in auth-checks.ts) against the server under test.
import { authChecks } from './auth-checks.ts';
import { registerChecks } from './register-checks.ts';

registerChecks(authChecks);
