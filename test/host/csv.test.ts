/**
 * The CSV exports over real HTTP: the body is streamed (the first chunk reaches the client while
 * the producer is still held), `text/csv` with an attachment file name, keys, limits and credits
 * as on every endpoint, JSON errors before the first byte, and a failure mid-stream ends the
 * connection instead of pretending the file is whole.
 */
import t from 'tap';
import type { Test } from 'tap';
import Koa from 'koa';
import { createExplorer } from '../../lib/index.ts';
import type { EndpointRequest, Explorer, ExplorerResponse } from '../../lib/index.ts';
import { explorerMiddleware } from '../../host/index.ts';
import type { ExplorerMiddlewareOptions, Plan } from '../../host/index.ts';
import { fixtureChains, limitHeaders, listen, request } from './helpers.ts';
import type { Listening } from './helpers.ts';

const { chain1, facts } = await fixtureChains();
const explorer = createExplorer({ chains: { '1': chain1 } });

const ANON: Plan = { name: 'anon', requestsPerSecond: 1000, credits: 1000, creditPeriod: 'day' };
const BIG: Plan = { name: 'big', requestsPerSecond: 1000, credits: 100_000, creditPeriod: 'month' };
const keys = [{ key: 'key-big', plan: BIG }];

async function serve(t: Test, inner: Explorer, options: ExplorerMiddlewareOptions = {}): Promise<Listening> {
  const app = new Koa();
  app.silent = true;
  app.use(explorerMiddleware(inner, { keys, anonymousPlan: ANON, ...options }));
  const s = await listen(app);
  t.teardown(() => s.close());
  return s;
}

const PERIOD = 'from_period=2000-01-01&to_period=2100-01-01';
const text = async (stream: AsyncIterable<string> | undefined): Promise<string> => {
  let out = '';
  for await (const chunk of stream ?? []) out += chunk;
  return out;
};

/** An explorer whose one answer is a stream the test drives chunk by chunk. */
function heldExplorer() {
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  const state = { finished: false, started: false };
  async function* chunks(): AsyncGenerator<string> {
    state.started = true;
    yield 'A,B\r\n';
    await held;
    yield '1,2\r\n';
    state.finished = true;
  }
  const inner: Explorer = {
    chainIds: ['1'],
    defaultChain: '1',
    dispatch: async (_req: EndpointRequest): Promise<ExplorerResponse> => ({
      status: 200,
      headers: { 'content-type': 'text/csv; charset=utf-8', 'content-disposition': 'attachment; filename="x.csv"' },
      body: null,
      stream: chunks(),
    }),
    handle: async () => ({ status: 500, headers: {}, body: null }),
    rpc: async () => ({ status: 500, headers: {}, body: null }),
    etherscan: async () => ({ status: 500, headers: {}, body: null }),
  };
  return { inner, state, release };
}

t.test('the body is streamed: the first chunk arrives while the producer is still held', async (t) => {
  const { inner, state, release } = heldExplorer();
  const s = await serve(t, inner);
  const res = await fetch(`${s.url}/api/v2/tokens/${facts.tokens.erc20}/holders/csv`);
  t.equal(res.status, 200);
  t.equal(res.headers.get('content-type'), 'text/csv; charset=utf-8');
  t.equal(res.headers.get('content-disposition'), 'attachment; filename="x.csv"');
  t.equal(res.headers.get('content-length'), null, 'no length: the size is not known up front');
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  const first = await reader.read();
  t.equal(new TextDecoder().decode(first.value), 'A,B\r\n', 'the first chunk');
  t.equal(state.finished, false, 'the producer has not finished when the client holds the first chunk');
  release();
  let rest = '';
  for (;;) {
    const r = await reader.read();
    if (r.done) break;
    rest += new TextDecoder().decode(r.value);
  }
  t.equal(rest, '1,2\r\n');
  t.equal(state.finished, true);
});

t.test('HEAD reads nothing of the export', async (t) => {
  const { inner, state } = heldExplorer();
  const s = await serve(t, inner);
  const res = await request(`${s.url}/api/v2/tokens/${facts.tokens.erc20}/holders/csv`, { method: 'HEAD' });
  t.equal(res.status, 200);
  t.equal(res.headers.get('content-type'), 'text/csv; charset=utf-8');
  t.equal(res.text, '');
  t.equal(res.headers.get('content-length'), null, 'no length claimed');
  await new Promise((resolve) => setTimeout(resolve, 50));
  t.equal(state.started, false, 'the producer was never started');
});

t.test('an export over HTTP is the export lib streams, with the limit headers', async (t) => {
  const s = await serve(t, explorer);
  const path = `/api/v2/addresses/${facts.hotAddress}/token-transfers/csv`;
  const res = await request(`${s.url}${path}?${PERIOD}`);
  t.equal(res.status, 200);
  t.equal(res.headers.get('content-type'), 'text/csv; charset=utf-8');
  t.equal(res.headers.get('content-disposition'), `attachment; filename="token-transfers_${facts.hotAddress}_2000-01-01_2100-01-01.csv"`);
  const direct = await explorer.handle({ path, query: Object.fromEntries(new URLSearchParams(PERIOD)) });
  t.equal(res.text, await text(direct.stream), 'the same bytes as the library call');
  t.ok(res.text.split('\r\n').length > 100, 'a multi-page export');
  t.same(limitHeaders(res), { limit: 1000, remaining: 999, reset: limitHeaders(res).reset, credits: 999 }, 'limited and charged like any endpoint');
});

t.test('keys and credits apply as to every endpoint', async (t) => {
  const s = await serve(t, explorer, { costs: { addressTransactionsCsv: 7 } });
  const path = `/1/api/v2/addresses/${facts.eoas.alice}/transactions/csv?${PERIOD}`;
  const noKey = await request(`${s.url}${path}`);
  t.equal(noKey.status, 401, 'the multichain form needs a key');
  t.same(noKey.json, { message: 'API key required' });
  t.match(noKey.headers.get('content-type') ?? '', /^application\/json/);
  const withKey = await request(`${s.url}${path}`, { headers: { 'x-api-key': 'key-big' } });
  t.equal(withKey.status, 200);
  t.equal(limitHeaders(withKey).credits, 100_000 - 7, 'the export is charged its cost');
  const again = await request(`${s.url}${path}`, { headers: { 'x-api-key': 'key-big' } });
  t.equal(limitHeaders(again).credits, 100_000 - 14);
  t.equal(again.text, withKey.text, 'a second export is read again (never cached), with the same rows');
});

t.test('errors found before the first byte are JSON', async (t) => {
  const s = await serve(t, explorer);
  const bad = await request(`${s.url}/api/v2/addresses/${facts.eoas.alice}/logs/csv?from_period=yesterday&to_period=2100-01-01`);
  t.equal(bad.status, 422);
  t.match(bad.headers.get('content-type') ?? '', /^application\/json/);
  t.equal((bad.json as { errors: { source: { pointer: string } }[] }).errors[0]?.source.pointer, '/from_period');
  t.ok(Number.isFinite(limitHeaders(bad).credits), 'the limit headers survive a 422');
  const missing = await request(`${s.url}/api/v2/addresses/${facts.eoas.alice}/logs/csv`);
  t.equal(missing.status, 422);
  t.same(
    (missing.json as { errors: { detail: string }[] }).errors.map((e) => e.detail),
    ['Missing field: from_period', 'Missing field: to_period'],
  );
  const unknown = await request(`${s.url}/api/v2/tokens/${facts.unknownAddress}/holders/csv`);
  t.equal(unknown.status, 404);
  t.same(unknown.json, { message: 'Not found' });
});

t.test('a source failing mid-export ends the connection and is reported', async (t) => {
  const failures: unknown[] = [];
  // the token is found (before the first byte); its holders cannot be read (after it)
  const flaky = new Proxy(chain1, {
    get(target, prop, receiver) {
      if (prop === 'listTokenHolders') return async () => Promise.reject(new Error('store gone'));
      return Reflect.get(target, prop, receiver);
    },
  });
  const failing = createExplorer({ chains: { '1': flaky }, onError: (e) => failures.push(e) });
  const s = await serve(t, failing);
  const whole = async (): Promise<string> => {
    const res = await fetch(`${s.url}/api/v2/tokens/${facts.tokens.erc20}/holders/csv`);
    t.equal(res.status, 200, 'when headers arrive, they are the 200 sent with the first chunk');
    return res.text();
  };
  await t.rejects(whole(), 'the client never gets a complete response');
  t.equal(failures.length, 1, 'the failure is reported to onError');
  t.match(String(failures[0]), /store gone/);
});
