// Runs the reliability checks (defined in reliability-checks.ts) against the server under test.
import { reliabilityChecks } from './checks/reliability-checks.ts';
import { registerChecks } from './checks/register-checks.ts';

registerChecks(reliabilityChecks);
