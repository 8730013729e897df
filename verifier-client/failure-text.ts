// Turns a check record into the text people read: the request sent (token redacted), what came back, and each violation
// with its pointer, expectation, spec rule and origin. Used by the thrown test error (JUnit) and the console reporter.
import type { CheckRecord, CheckViolation, RecordedExchange } from './check-record.ts';

function indent(text: string, by: string): string {
  return text
    .split('\n')
    .map((line) => by + line)
    .join('\n');
}

/**
 * The request and the answer of one exchange, as a short dump; bodies are cut at `bodyLength` characters (the console
 * passes a terminal's width, reports keep more).
 * @example formatExchange(record.exchanges[0], 100)
 */
export function formatExchange(exchange: RecordedExchange, bodyLength = 600): string {
  const clip = (text: string): string => clipTo(text, bodyLength);
  const lines = [`→ ${exchange.request.method} ${exchange.request.url}`];
  for (const [name, value] of Object.entries(exchange.request.headers)) lines.push(`    ${name}: ${value}`);
  if (exchange.request.body !== undefined) lines.push(indent(clip(exchange.request.body), '    '));
  if (exchange.response) {
    lines.push(
      `← ${exchange.response.status} ${exchange.response.headers['content-type'] ?? '(no Content-Type)'} in ${exchange.durationMs} ms`,
    );
    const challenge = exchange.response.headers['www-authenticate'];
    if (challenge !== undefined) lines.push(`    www-authenticate: ${clip(challenge)}`);
    if (exchange.response.body !== '') lines.push(indent(clip(exchange.response.body), '    '));
  } else {
    lines.push(`← no answer: ${exchange.error ?? 'unknown error'}`);
  }
  return lines.join('\n');
}

/** One violation on one line (plus the expectation and the rule). */
export function formatViolation(violation: CheckViolation): string {
  return [
    `✗ [${violation.check}] ${violation.message}`,
    `    at ${violation.pointer === '' ? '(the whole response)' : violation.pointer}: expected ${violation.expected}, found ${violation.found}`,
    `    rule ${violation.rule}, spec ${violation.specPointer || '(document)'} (${violation.origin})`,
  ].join('\n');
}

/** Everything a person needs to understand why a check failed. */
export function formatFailure(record: CheckRecord): string {
  const parts: string[] = [];
  const shown = new Set<number>();
  for (const violation of record.violations) {
    if (violation.exchange !== undefined && !shown.has(violation.exchange)) {
      const exchange = record.exchanges[violation.exchange];
      if (exchange) parts.push(formatExchange(exchange));
      shown.add(violation.exchange);
    }
    parts.push(formatViolation(violation));
  }
  if (record.generated?.counterexample !== undefined)
    parts.push(`shrunk counterexample: ${record.generated.counterexample}`);
  if (record.generated?.replay !== undefined) parts.push(`replay: ${record.generated.replay}`);
  return parts.join('\n');
}

function clipTo(text: string, length: number): string {
  return text.length > length ? `${text.slice(0, length)}… (${text.length} characters)` : text;
}
