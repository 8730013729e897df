// Runs the behaviour checks (defined in behaviour-checks.ts) against the server under test.
import { behaviourChecks } from './checks/behaviour-checks.ts';
import { registerChecks } from './checks/register-checks.ts';

registerChecks(behaviourChecks);
