// Runs the behaviour checks (defined in behaviour-checks.ts) against the server under test.
import { behaviourChecks } from './behaviour-checks.ts';
import { registerChecks } from './register-checks.ts';

registerChecks(behaviourChecks);
