// The console: one page over a fake's control plane (or the proxy's), with a tab per view and the live journal stream.
import { useEffect, useRef, useState } from 'preact/hooks';
import { call, onTokenNeeded, setControlToken, setSession, streamEvents } from './control-client.ts';
import { MAX_EXCHANGES, parseExchange, type ExchangeEvent } from './journal-events.ts';
import { CoverageView } from './views/coverage-view.tsx';
import { FindingsView } from './views/findings-view.tsx';
import { RequestsView } from './views/requests-view.tsx';
import { StateView } from './views/state-view.tsx';
import { SteeringView } from './views/steering-view.tsx';

/** The fake's views; the proxy has findings and coverage (its control plane has no state, steering or stream). */
const FAKE_TABS = ['Requests', 'State', 'Steering', 'Coverage'] as const;
const PROXY_TABS = ['Findings', 'Coverage'] as const;
type Tab = (typeof FAKE_TABS)[number] | (typeof PROXY_TABS)[number];

function TokenPrompt({ onToken }: { onToken: (token: string) => void }) {
  const [value, setValue] = useState('');
  return (
    <form
      class="token card"
      aria-labelledby="token-title"
      onSubmit={(event) => {
        event.preventDefault();
        onToken(value);
      }}
    >
      <h2 id="token-title">Control token</h2>
      <p>
        This fake was started with <code>--control-token</code>. Enter it: the page keeps it in memory only and sends
        it in <code>X-Mock-Control-Token</code>.
      </p>
      <label for="control-token">Token</label>{' '}
      <input id="control-token" type="password" autoComplete="off" value={value} onInput={(e) => setValue(e.currentTarget.value)} />{' '}
      <button type="submit">Use token</button>
    </form>
  );
}

function Tabs({ tabs, tab, onTab }: { tabs: readonly Tab[]; tab: Tab; onTab: (tab: Tab) => void }) {
  const refs = useRef<(HTMLButtonElement | null)[]>([]);
  const move = (event: KeyboardEvent, index: number): void => {
    const step = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0;
    if (step === 0) return;
    event.preventDefault();
    const next = (index + step + tabs.length) % tabs.length;
    onTab(tabs[next] ?? tab);
    refs.current[next]?.focus();
  };
  return (
    <div role="tablist" aria-label="Views" class="tabs">
      {tabs.map((name, index) => (
        <button
          key={name}
          type="button"
          role="tab"
          id={`tab-${name}`}
          aria-selected={tab === name}
          aria-controls={`panel-${name}`}
          tabIndex={tab === name ? 0 : -1}
          ref={(element) => {
            refs.current[index] = element;
          }}
          onClick={() => onTab(name)}
          onKeyDown={(event) => move(event, index)}
        >
          {name}
        </button>
      ))}
    </div>
  );
}

function SessionPicker({ session, onSession }: { session: string; onSession: (session: string) => void }) {
  const [sessions, setSessions] = useState<string[]>([]);
  const refresh = (): void => {
    void call('GET', '/__mock/sessions').then((reply) => {
      const list = reply.ok ? (reply.body as { sessions?: { id: string }[] }).sessions : undefined;
      setSessions(Array.isArray(list) ? list.map((item) => item.id) : []);
    });
  };
  useEffect(refresh, []);
  return (
    <label class="session">
      Session{' '}
      <select value={session} onFocus={refresh} onChange={(event) => onSession(event.currentTarget.value)}>
        <option value="">default</option>
        {sessions.map((id) => (
          <option key={id} value={id}>
            {id}
          </option>
        ))}
      </select>
    </label>
  );
}

/** The fake's console: the live journal stream feeds Requests and refreshes the other views. */
function FakeConsole({ connection, onReconnect }: { connection: number; onReconnect: () => void }) {
  const [tab, setTab] = useState<Tab>('Requests');
  const [exchanges, setExchanges] = useState<ExchangeEvent[]>([]);
  const [connected, setConnected] = useState(false);
  const [session, pickSession] = useState('');
  const [revision, setRevision] = useState(0);
  useEffect(() => {
    setExchanges([]);
    let pending: ExchangeEvent[] = [];
    let timer: ReturnType<typeof setTimeout> | undefined;
    // Events are applied in batches of one frame: a burst of requests renders once.
    const flush = (): void => {
      timer = undefined;
      const batch = pending;
      pending = [];
      setExchanges((current) => [...current, ...batch].slice(-MAX_EXCHANGES));
      setRevision((count) => count + 1);
    };
    const stop = streamEvents(
      '/__mock/journal/events',
      (data) => {
        const exchange = parseExchange(data, session === '' ? 'default' : session);
        if (!exchange) return;
        pending.push(exchange);
        timer ??= setTimeout(flush, 50);
      },
      setConnected,
    );
    return () => {
      stop();
      if (timer) clearTimeout(timer);
    };
  }, [session, connection]);
  return (
    <>
      <SessionPicker
        session={session}
        onSession={(id) => {
          setSession(id);
          pickSession(id);
        }}
      />
      <Tabs tabs={FAKE_TABS} tab={tab} onTab={setTab} />
      <div id={`panel-${tab}`} role="tabpanel" aria-labelledby={`tab-${tab}`} tabIndex={0}>
        {tab === 'Requests' && <RequestsView exchanges={exchanges} connected={connected} />}
        {tab === 'State' && <StateView revision={revision + connection} />}
        {tab === 'Steering' && <SteeringView revision={revision + connection} onReset={onReconnect} />}
        {tab === 'Coverage' && <CoverageView revision={revision + connection} pact />}
      </div>
    </>
  );
}

/** The proxy's console: its findings and the coverage the app exercised against the real server. */
function ProxyConsole({ upstream }: { upstream: string }) {
  const [tab, setTab] = useState<Tab>('Findings');
  return (
    <>
      <p class="muted">Checking every exchange with {upstream} against spec/openapi.yaml.</p>
      <Tabs tabs={PROXY_TABS} tab={tab} onTab={setTab} />
      <div id={`panel-${tab}`} role="tabpanel" aria-labelledby={`tab-${tab}`} tabIndex={0}>
        {tab === 'Findings' && <FindingsView revision={0} />}
        {tab === 'Coverage' && <CoverageView revision={0} pact={false} />}
      </div>
    </>
  );
}

/** Which server the page is on: the fake or the proxy (their health answers say), once the control plane answers. */
type Role = { kind: 'fake' } | { kind: 'proxy'; upstream: string };

/** The console; `embedded` (the devtools panel over an app) makes it a labelled region, the app keeping its `main`. */
export function App({ embedded = false }: { embedded?: boolean }) {
  const [role, setRole] = useState<Role | undefined>(undefined);
  const [needsToken, setNeedsToken] = useState(false);
  const [connection, setConnection] = useState(0);
  useEffect(() => onTokenNeeded(() => setNeedsToken(true)), []);
  useEffect(() => {
    void call('GET', '/__mock/health').then((reply) => {
      if (!reply.ok) return;
      const body = reply.body as { role?: unknown; upstream?: unknown };
      setRole(body.role === 'proxy' ? { kind: 'proxy', upstream: String(body.upstream) } : { kind: 'fake' });
    });
  }, [connection]);
  const Root = embedded ? 'section' : 'main';
  return (
    <Root class="console" aria-labelledby="console-title">
      <header>
        <h1 id="console-title">Agent Registry {role?.kind === 'proxy' ? 'proxy' : 'fake'}: console</h1>
      </header>
      {needsToken && (
        <TokenPrompt
          onToken={(token) => {
            setControlToken(token);
            setNeedsToken(false);
            setConnection((count) => count + 1);
          }}
        />
      )}
      {role === undefined && !needsToken && <p role="status">Connecting…</p>}
      {role?.kind === 'fake' && <FakeConsole connection={connection} onReconnect={() => setConnection((c) => c + 1)} />}
      {role?.kind === 'proxy' && <ProxyConsole upstream={role.upstream} />}
    </Root>
  );
}
