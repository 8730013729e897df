import { describe, expect, it } from 'vitest';
import { checkResponse } from '../../spec/index.ts';
import { problemResponse } from './problems.ts';
import { withCors } from './request/cors.ts';
import type { MockRequest } from './mock-http.ts';

describe('problemResponse keeps within the bounds spec/openapi.yaml puts on a problem', () => {
  it('cuts a long instance and detail, lists the first 100 errors, and still conforms', () => {
    const path = `/v1/agents/${'a'.repeat(5000)}`;
    const errors = Array.from({ length: 150 }, (_, index) => ({
      path: `/${'p'.repeat(3000)}${index}`,
      message: 'm'.repeat(2000),
    }));
    const response = problemResponse('invalid-parameter', { detail: 'd'.repeat(5000), instance: path, errors });
    const problem = JSON.parse(response.body) as {
      detail: string;
      instance: string;
      errors: { path: string; message: string }[];
    };
    expect([problem.detail.length, problem.instance.length, problem.errors.length]).toEqual([4096, 2048, 100]);
    expect([problem.errors[0]?.path.length, problem.errors[0]?.message.length]).toEqual([2048, 1024]);
    const check = checkResponse({
      operationId: 'getAgent',
      status: 400,
      contentType: 'application/problem+json',
      body: response.body,
      headers: response.headers,
    });
    expect(check.violations).toEqual([]);
  });
});

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
