// What a PostgreSQL URL may show of itself. pg (pg-connection-string) takes a password from the user info
// (`user:pw@`) and from the query (`?password=`), and a client key's passphrase from `?sslpassword=`: every one of
// them is masked, so no message of the fake prints a secret it was given.

/** Query parameters that hold a secret in a URL pg reads. */
const SECRET_PARAMETERS = new Set(['password', 'sslpassword']);

/**
 * Why `url` is no PostgreSQL URL the fake can use, or undefined. Without `//` after the scheme, URL parsing puts the
 * user and password in the path and pg connects to 127.0.0.1:5432 as someone else: refused before it connects.
 * @example postgresUrlProblem('postgres:fake:pw@db/fake') // 'is not a postgres://user@host:port/db URL (no // after postgres:)'
 */
export function postgresUrlProblem(url: string): string | undefined {
  const scheme = /^(postgres(?:ql)?):/i.exec(url)?.[1] ?? 'postgres';
  if (!/^postgres(ql)?:\/\//i.test(url)) return `is not a postgres://user@host:port/db URL (no // after ${scheme}:)`;
  return URL.canParse(url) ? undefined : 'is not a URL that can be parsed';
}

/**
 * The URL as it may be shown: every password pg would use replaced by `***`, an unusable URL by a placeholder.
 * @example redactPostgresUrl('postgres://fake:pw@db/fake?password=pw2') // 'postgres://fake:***@db/fake?password=***'
 */
export function redactPostgresUrl(url: string): string {
  if (postgresUrlProblem(url) !== undefined) return 'postgres://(unparsable URL)';
  const parsed = new URL(url);
  if (parsed.password) parsed.password = '***';
  for (const name of [...parsed.searchParams.keys()])
    if (SECRET_PARAMETERS.has(name.toLowerCase())) parsed.searchParams.set(name, '***');
  // searchParams writes `***` as `%2A%2A%2A`; the marker reads better as it is.
  return parsed.toString().replaceAll('%2A%2A%2A', '***');
}
