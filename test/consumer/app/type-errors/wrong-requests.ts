// Must NOT compile: each line marked `error TSxxxx` is a mistake tsc has to catch in what a test reads back of the
// requests the app sent (see wrong-override.ts).
import { setupMockServer } from 'agent-registry-kit/node';

const { api } = setupMockServer();
void api.requests('deployAgent', { body: { revenueShare: 0.1 }, status: 201 });
void api.waitForRequest('GET /v1/agents/{agentId}', { params: { agentId: 'agt_1' } });
// error TS2345: an operation the spec does not have
void api.requests('deployAgents');
// error TS2561: a misspelt body field in a filter
void api.waitForRequest('deployAgent', { body: { revenueShar: 0.1 } });
// error TS2322: a body field of the wrong type in a filter
void api.requests('deployAgent', { body: { revenueShare: '10%' } });
// error TS2353: a path parameter the operation does not have
void api.requests('getAgent', { params: { taskId: 'x' } });
