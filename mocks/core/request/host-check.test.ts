// Host, Origin and Sec-Fetch-Site are parsed strictly: what no browser or HTTP client sends is refused, not read
// leniently into a local name (`localhost:4711@evil.com` was read as `localhost`).
import { describe, expect, it } from 'vitest';
import { isLoopbackOrigin, refuseCrossSite } from './cors.ts';
import { createHostCheck, hostnameOf } from './host-check.ts';
import type { MockRequest } from '../mock-http.ts';

describe('hostnameOf', () => {
  it.each([
    ['localhost:4010', 'localhost'],
    ['LOCALHOST', 'localhost'],
    ['app.localhost.:5173', 'app.localhost'],
    ['127.0.0.1:4010', '127.0.0.1'],
    ['[::1]:4010', '::1'],
    ['[::1]', '::1'],
    ['my_service:8080', 'my_service'],
    ['localhost:4711@evil.com', undefined],
    ['[::1]evil.com', undefined],
    ['[::1]:80evil', undefined],
    ['localhost:4010, evil.com', undefined],
    ['localhost:99999', undefined],
    ['evil.com/localhost', undefined],
    ['', undefined],
  ])('%j → %j', (header, name) => {
    expect(hostnameOf(header)).toBe(name);
  });
});

describe('the Host check refuses what no client sends', () => {
  const allowed = createHostCheck();
  it.each(['localhost:4711@evil.com', '[::1]evil.com', '127.000.000.001', '127.0.0.01:4010', '0177.0.0.1'])(
    '%s is refused',
    (host) => {
      expect(allowed(host)).toBe(false);
    },
  );
  it.each(['localhost:4711', '[::1]:4010', '127.0.0.1', '127.1.2.3:80', 'a.localhost'])('%s passes', (host) => {
    expect(allowed(host)).toBe(true);
  });
});

describe('Origin and Sec-Fetch-Site of control-plane requests', () => {
  const request = (headers: Record<string, string>): MockRequest => ({
    method: 'POST',
    path: '/__mock/reset',
    query: '',
    headers,
    body: null,
  });
  it.each([
    ['http://localhost\\@evil.com', false],
    ['http://localhost:5173/path', false],
    ['http://user@localhost:5173', false],
    ['http://127.1:5173', false],
    ['http://localhost:5173', true],
    ['http://[::1]:5173', true],
  ])('Origin %s is loopback: %s', (origin, loopback) => {
    expect(isLoopbackOrigin(origin)).toBe(loopback);
  });
  it.each([
    ['cross-site', 403],
    ['cross-site, same-site', 403],
    ['same-site, cross-site', 403],
    ['bogus', 403],
    ['same-origin', undefined],
    ['same-site', undefined],
    ['none', undefined],
  ])('Sec-Fetch-Site: %s → %s', (site, status) => {
    expect(refuseCrossSite('*', request({ 'sec-fetch-site': site }))?.status).toBe(status);
  });
});
