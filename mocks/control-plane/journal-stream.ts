// GET /__mock/journal/events: the journal as Server-Sent Events, what the console's Requests view shows live.
import type { MockResponse } from '../core/mock-http.ts';
import { hideTokens, type ExchangeDetail } from '../core/steering/exchange-detail.ts';
import type { Journal, JournalEntry } from '../core/steering/journal.ts';

/** One `exchange` event: its id is the entry's seq (a reconnecting EventSource sends it back as Last-Event-ID). */
function exchangeEvent(entry: JournalEntry, detail: ExchangeDetail | undefined): string {
  // The body as the detail shows it, the caller's credential hidden; without one (an entry answered before the stream
  // opened: the journal keeps no Authorization) every JWT-shaped text is hidden.
  const body = detail === undefined ? entry.body && hideTokens(entry.body) : detail.request.body;
  const shown = { ...entry, body };
  // JSON.stringify escapes line breaks inside strings, so the data is one line whatever the request held.
  return `id: ${entry.seq}\nevent: exchange\ndata: ${JSON.stringify(detail === undefined ? { entry: shown } : { entry: shown, detail })}\n\n`;
}

/**
 * The stream's answer: the entries after `after` as its first bytes, then each new one as it is added.
 * @example journalStream(core.journal, 0).events?.((text) => res.write(text))
 */
export function journalStream(journal: Pick<Journal, 'entriesAfter' | 'subscribe'>, after: number): MockResponse {
  return {
    status: 200,
    headers: {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
    },
    body: `retry: 1000\n\n${journal
      .entriesAfter(after)
      .map((entry) => exchangeEvent(entry, undefined))
      .join('')}`,
    // The core attaches an ExchangeDetail to every entry it adds while someone watches (steering/answer-recording.ts, recordAnswer).
    events: (push) =>
      journal.subscribe((entry, detail) => push(exchangeEvent(entry, detail as ExchangeDetail | undefined))),
  };
}
