import { describe, expect, it } from 'vitest';
import { postgresUrlProblem, redactPostgresUrl } from './postgres-url.ts';

describe('redactPostgresUrl', () => {
  // Every place pg takes a secret from: the user info and the query (pg-connection-string reads both).
  it.each([
    ['user info', 'postgres://fake:S3cr3t@db:5432/fake', 'postgres://fake:***@db:5432/fake'],
    ['?password=', 'postgres://fake@db/fake?password=S3cr3t', 'postgres://fake@db/fake?password=***'],
    [
      '?PASSWORD= among others',
      'postgresql://db/fake?sslmode=require&PASSWORD=S3cr3t',
      'postgresql://db/fake?sslmode=require&PASSWORD=***',
    ],
    [
      '?sslpassword=',
      'postgres://db/fake?sslkey=/k.pem&sslpassword=S3cr3t',
      'postgres://db/fake?sslkey=%2Fk.pem&sslpassword=***',
    ],
    ['both at once', 'postgres://u:S3cr3t@db/fake?password=S3cr3t', 'postgres://u:***@db/fake?password=***'],
    ['no // after the scheme', 'postgres:fake:S3cr3t@db/fake', 'postgres://(unparsable URL)'],
    ['a password holding @ and :', 'postgres://u:S3:cr@3t@db/fake', 'postgres://u:***@db/fake'],
  ])('masks %s', (_name, url, shown) => {
    expect(redactPostgresUrl(url)).toBe(shown);
    expect(redactPostgresUrl(url)).not.toMatch(/S3/);
  });
});

describe('postgresUrlProblem', () => {
  it('refuses a URL without // (it would connect to 127.0.0.1:5432 as another user), accepts the usual forms', () => {
    expect(postgresUrlProblem('postgres:fake:S3cr3t@db/fake')).toMatch(/no \/\/ after postgres:/);
    expect(postgresUrlProblem('postgresql:/db/fake')).toMatch(/no \/\/ after postgresql:/);
    expect(postgresUrlProblem('postgres://fake@db:5432/fake')).toBeUndefined();
    expect(postgresUrlProblem('postgresql:///fake?host=/var/run/postgresql')).toBeUndefined();
  });
});
