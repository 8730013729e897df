// Which Host headers and bind addresses count as local: the DNS-rebinding guard of the standalone server.

/**
 * Whether a host name or address (no port; IPv6 with or without brackets) is a loopback one: `localhost`, `*.localhost`,
 * 127.0.0.0/8 or ::1 (also as ::ffff:127.x.y.z).
 * @example isLoopbackHost('127.0.0.1') // true; isLoopbackHost('app.localhost') // true; isLoopbackHost('0.0.0.0') // false
 */
export function isLoopbackHost(host: string): boolean {
  const name = unbracket(host).toLowerCase().replace(/\.$/, '');
  if (name === 'localhost' || name.endsWith('.localhost')) return true;
  if (name === '::1' || name === '0:0:0:0:0:0:0:1') return true;
  const v4 = name.startsWith('::ffff:') ? name.slice('::ffff:'.length) : name;
  const octets = v4.split('.');
  return (
    octets.length === 4 &&
    octets[0] === '127' &&
    octets.every((octet) => /^\d{1,3}$/.test(octet) && Number(octet) < 256)
  );
}

function unbracket(host: string): string {
  return host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
}

/**
 * The host name of a Host header value, without the port and brackets, lower-cased; undefined when it is not one host
 * (empty, or several values joined by commas).
 * @example hostnameOf('[::1]:4010') // '::1'; hostnameOf('Example.COM:80') // 'example.com'
 */
export function hostnameOf(header: string): string | undefined {
  const value = header.trim().toLowerCase();
  if (value === '' || value.includes(',')) return undefined;
  if (value.startsWith('[')) {
    const close = value.indexOf(']');
    return close === -1 ? undefined : value.slice(1, close);
  }
  const colon = value.lastIndexOf(':');
  const name = colon === -1 ? value : value.slice(0, colon);
  return name.replace(/\.$/, '');
}

/**
 * A Host check: loopback names and addresses always pass; `allowed` adds exact names (`fake.internal`), whole domains
 * (`.example.test`: the domain and every subdomain) or `*` (every host: turns the check off).
 * @example const allowed = createHostCheck(['fake.internal']); allowed('fake.internal:4010') // true; allowed('evil.example') // false
 */
export function createHostCheck(allowed: readonly string[] = []): (hostHeader: string) => boolean {
  if (allowed.includes('*')) return () => true;
  const exact = new Set<string>();
  const suffixes: string[] = [];
  for (const entry of allowed) {
    const name = unbracket(entry.trim().toLowerCase()).replace(/\.$/, '');
    if (name.startsWith('.')) suffixes.push(name);
    else if (name !== '') exact.add(name);
  }
  return (hostHeader) => {
    const name = hostnameOf(hostHeader);
    if (name === undefined) return false;
    if (isLoopbackHost(name) || exact.has(name)) return true;
    return suffixes.some((suffix) => name.endsWith(suffix) || name === suffix.slice(1));
  };
}
