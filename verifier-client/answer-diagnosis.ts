// Looks at every answer of a run for one cause behind all of them (a wrong base URL, a rejected token, an HTML page, a
// stub that says the same thing to everything), so a newcomer reads the likely fix before the list of violations.
import type { CheckRecord, RecordedExchange } from './check-record.ts';

/** Fewer answers than this say too little to name a common cause. */
const minimumAnswers = 5;

function isHtml(response: NonNullable<RecordedExchange['response']>): boolean {
  const type = response.headers['content-type'] ?? '';
  return /text\/html|application\/xhtml/i.test(type) || /^\s*<(!doctype|html)/i.test(response.body);
}

function clip(text: string, length: number): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > length ? `${line.slice(0, length)}…` : line;
}

/**
 * The lines that name what all (or nearly all) answers have in common, or none when nothing stands out.
 * @example diagnose(records) // ['Every answer (212 of 212) was 404: is API_BASE_URL the {base_url}, without /v1? …']
 */
export function diagnose(records: readonly CheckRecord[]): string[] {
  const exchanges = records.flatMap((record) => record.exchanges);
  const answered = exchanges.flatMap((exchange) => (exchange.response ? [exchange.response] : []));
  const unanswered = exchanges.length - answered.length;
  if (exchanges.length >= minimumAnswers && answered.length === 0)
    return [
      `No request got an answer (${unanswered} tried; first: ${exchanges[0]?.error ?? 'no response'}): is the server up, and is API_BASE_URL right?`,
    ];
  if (answered.length < minimumAnswers) return [];
  const total = `${answered.length} of ${exchanges.length}`;
  const html = answered.filter(isHtml).length;
  if (html >= answered.length * 0.9)
    return [
      `${html === answered.length ? 'Every' : 'Nearly every'} answer (${html} of ${exchanges.length}) was an HTML page, not JSON: API_BASE_URL probably points at a website, a login page or a proxy rather than at the API.`,
    ];
  const statuses = new Set(answered.map((response) => response.status));
  if (statuses.size === 1 && statuses.has(404))
    return [
      `Every answer (${total}) was 404: is API_BASE_URL the {base_url}, without /v1? The suite requests ${clip(exchanges[0]?.request.url ?? '', 80)} and the like.`,
    ];
  if (statuses.size === 1 && statuses.has(401))
    return [
      `Every answer (${total}) was 401, also with API_TOKEN: the server does not accept the token (expired, another issuer or secret, or not meant for this server?).`,
    ];
  const first = answered[0];
  const same = (response: (typeof answered)[number]): boolean =>
    response.status === first?.status &&
    response.body === first.body &&
    response.headers['content-type'] === first.headers['content-type'];
  if (first && answered.every(same))
    return [
      `Every answer (${total}) was the same, ${first.status} ${first.headers['content-type'] ?? '(no Content-Type)'} ${clip(first.body, 60) || '(empty body)'}, whatever was asked: is API_BASE_URL the API itself, and not a stub, a health check or a catch-all route?`,
    ];
  return [];
}
