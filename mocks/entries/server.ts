// The `agent-registry-kit/server` entry: the standalone fake on node:http (what `agent-registry-kit serve` runs), for
// tests and tools that start it themselves (port 0 picks a free port), and the test API over its control plane.
export { startMockServer, type MockServerOptions, type RunningMockServer } from '../adapters/node-http/http-server.ts';
export { HTTP_LIMITS, type HttpLimits } from '../http/limited-server.ts';
export { connectTestApi, type RemoteTestApiOptions } from '../test-api/remote-test-api.ts';
export { createTestApi } from '../test-api/test-api.ts';
export { DEFAULT_JWT_SECRET, mintToken, type MintOptions } from '../core/request/auth.ts';
export * from './test-api-exports.ts';
