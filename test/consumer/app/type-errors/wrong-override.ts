// Must NOT compile: each line marked `error TSxxxx` is a mistake tsc has to catch (the consumer test asserts exactly
// these diagnostics, line by line). The unmarked lines are the correct calls beside them, which must compile.
import { overrideHandler, setupMockServer } from 'agent-registry-kit/node';

const server = setupMockServer();
server.use(overrideHandler('getAgent', 404));
// error TS2345: an operation the spec does not have
server.use(overrideHandler('getAgents', 404));
// error TS2345: a path template with a typo
server.use(overrideHandler('GET /v1/agent/{agentId}', 404));
// error TS2345: a status getAgent does not document
server.use(overrideHandler('getAgent', 415));
// error TS2561: a misspelt field of the 409 problem body
server.use(overrideHandler('executeAgentTask', 409, { type: 't', title: 't', status: 409, detial: 'x' }));
// error TS2322: a field of the wrong type in the 404 problem body
void server.api.override('getAgent', 404, { type: 't', title: 't', status: '404', detail: 'd' });
// error TS2322: errorStatus 415 is not documented by getAgent
void server.api.setScenarios({ operations: { getAgent: { errorStatus: 415 } } });
