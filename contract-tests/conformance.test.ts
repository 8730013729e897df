// Runs the conformance checks (defined in conformance-checks.ts) against the server under test.
import { conformanceChecks } from './conformance-checks.ts';
import { registerChecks } from './register-checks.ts';

registerChecks(conformanceChecks);
