// Which Host headers and bind addresses count as local: the DNS-rebinding guard of the standalone server.
// Stryker disable all: not reached: the DNS-rebinding guard runs in the node adapter only; the suite reaches the fake through msw here, and the description says nothing of Host

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
  // Dotted-decimal as written by everyone: no leading zeros (`127.000.000.001` is refused, as WHATWG URL reads `010` as octal).
  return (
    octets.length === 4 &&
    octets[0] === '127' &&
    octets.every((octet) => /^(?:0|[1-9]\d{0,2})$/.test(octet) && Number(octet) < 256)
  );
}

function unbracket(host: string): string {
  return host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
}

/**
 * A Host header value (RFC 9110 `uri-host [ ":" port ]`), lower-cased: a bracketed IPv6 address or a DNS name (labels of
 * letters, digits, `-` and `_`, an optional final dot), then an optional port. Nothing else: no `user@`, nothing after
 * `]`, no second value.
 */
const HOST_HEADER =
  /^(?:\[([0-9a-f:.]+)\]|([a-z0-9_](?:[a-z0-9_-]*[a-z0-9_])?(?:\.[a-z0-9_](?:[a-z0-9_-]*[a-z0-9_])?)*\.?))(?::(\d{1,5}))?$/;

/**
 * The host name of a Host header value, without the port and brackets, lower-cased; undefined when it is not exactly
 * one well-formed host (empty, several values joined by commas, `localhost:4711@evil.com`, `[::1]evil.com`).
 * @example hostnameOf('[::1]:4010') // '::1'; hostnameOf('Example.COM:80') // 'example.com'
 */
export function hostnameOf(header: string): string | undefined {
  const match = HOST_HEADER.exec(header.trim().toLowerCase());
  if (!match || Number(match[3] ?? 0) > 65_535) return undefined;
  return (match[1] ?? match[2] ?? '').replace(/\.$/, '');
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
