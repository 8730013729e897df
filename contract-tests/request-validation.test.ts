// Runs the request-validation checks (defined in request-validation-checks.ts) against the server under test.
import { requestValidationChecks } from './request-validation-checks.ts';
import { registerChecks } from './register-checks.ts';

registerChecks(requestValidationChecks);
