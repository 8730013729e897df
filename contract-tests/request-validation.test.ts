// Runs the request-validation checks (defined in request-validation-checks.ts) against the server under test.
import { requestValidationChecks } from './checks/request-validation-checks.ts';
import { registerChecks } from './checks/register-checks.ts';

registerChecks(requestValidationChecks);
