import { describe, expect, it } from 'vitest';
import type { MockRequest } from '../mock-http.ts';
import { withCors } from './cors.ts';

describe('withCors', () => {
  const request = (origin: string): MockRequest =>
    ({ method: 'GET', path: '/v1/agents/x', query: '', headers: { origin }, body: '' }) as unknown as MockRequest;
  it('echoes an allowed origin, but none longer than the 2048 characters the spec allows', () => {
    const short = withCors('*', request('http://localhost:5173'), { status: 200, headers: {}, body: '' });
    expect(short.headers['access-control-allow-origin']).toBe('http://localhost:5173');
    expect(short.headers['access-control-expose-headers']).toContain('RateLimit-Remaining');
    const long = withCors('*', request(`http://${'a'.repeat(2048)}.localhost`), { status: 200, headers: {}, body: '' });
    expect(long.headers['access-control-allow-origin']).toBeUndefined();
  });
});
