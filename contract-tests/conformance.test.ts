// Runs the conformance checks (defined in conformance-checks.ts) against the server under test.
import { conformanceChecks } from './checks/conformance-checks.ts';
import { registerChecks } from './checks/register-checks.ts';

registerChecks(conformanceChecks);
