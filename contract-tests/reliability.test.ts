// Runs the reliability checks (defined in reliability-checks.ts) against the server under test.
import { reliabilityChecks } from './reliability-checks.ts';
import { registerChecks } from './register-checks.ts';

registerChecks(reliabilityChecks);
