// Runs the auth checks (defined in auth-checks.ts) against the server under test.
import { authChecks } from './checks/auth-checks.ts';
import { registerChecks } from './checks/register-checks.ts';

registerChecks(authChecks);
