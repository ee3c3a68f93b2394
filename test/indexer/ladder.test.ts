/**
 * The tracing ladder on anvil: anvil serves the block, transaction and parity rungs, and a proxy
 * that refuses the better methods makes the probe take each one. Every rung gives the records
 * of the block rung, field for field, for every transaction and address of the scenario; the
 * rung taken is said in one line; a rung forced with `traceMode` that the node refuses is an
 * error; a rung that answers garbage holds its block and stores none of it.
 */
import t from 'tap';
import { createIndexer } from '../../lib/indexer/index.ts';
import { createRpcChainSource } from '../../adapters/rpc/index.ts';
import { createMemoryStore } from '../../adapters/memory/index.ts';
import { startAnvil } from '../../demo/anvil.ts';
import type { TraceMode } from '../../lib/chain-source.ts';
import { refused, startRpcFilter } from '../support/rpcFilter.ts';
import type { RpcCall, RpcReply } from '../support/rpcFilter.ts';
import { exactView, portableView, servedBalances } from './ladderView.ts';
import { runLadderScenario } from './ladderScenario.ts';

const REFUSED: Record<'block' | 'transaction' | 'parity', readonly string[]> = {
  block: [],
  transaction: ['debug_traceBlockByNumber'],
  parity: ['debug_traceBlockByNumber', 'debug_traceTransaction'],
};

async function indexThrough(url: string, head: number, options: { traceMode?: TraceMode } = {}) {
  const logs: string[] = [];
  const source = createRpcChainSource(url, { retry: { retries: 2, baseDelayMs: 50 }, ...options });
  const store = createMemoryStore();
  await createIndexer({ source, sink: store, batchSize: 10, concurrency: 4, pollIntervalMs: 100, log: (l) => logs.push(l) }).run({ to: head });
  return { store, logs, caps: await source.capabilities() };
}

t.test('every rung anvil serves gives the block rung\'s records', async (t) => {
  const anvil = await startAnvil();
  t.teardown(() => anvil.stop());
  const scenario = await runLadderScenario(anvil.url);
  const views = new Map<string, unknown>();
  for (const [mode, methods] of Object.entries(REFUSED)) {
    const filter = await startRpcFilter(anvil.url, (c: RpcCall): RpcReply | undefined => (methods.includes(c.method) ? refused(c.method) : undefined));
    const { store, logs, caps } = await indexThrough(filter.url, scenario.head);
    await filter.stop();
    t.equal(caps.traceMode, mode, `${mode}: the probe takes the ${mode} rung`);
    t.ok(caps.traces && caps.prestate, `${mode}: frames and state diffs`);
    const said = logs.filter((l) => l.startsWith('tracing: '));
    t.same(said, [said[0]], `${mode}: the rung is said once`);
    t.match(said[0], new RegExp(`^tracing: ${mode} `), `${mode}: ${said[0] ?? 'no line'}`);
    t.same(logs.filter((l) => l.startsWith('missing on this node')), [], `${mode}: nothing missing`);
    views.set(mode, await exactView(store, { ...scenario, addresses: [...scenario.addresses, scenario.miner] }));
  }
  const block = views.get('block') as Record<string, { items?: unknown[] }>;
  const internal = scenario.transactions.reduce((n, h) => n + (block[`internal ${h}`]?.items?.length ?? 0), 0);
  t.ok(internal >= 8, `the block rung stored internal transactions (${internal})`);
  t.same(views.get('transaction'), block, 'transaction rung = block rung, every field');
  t.same(views.get('parity'), block, 'parity rung = block rung, every field');
  const proxy = (block[`address ${scenario.proxy.toLowerCase()}`] as unknown as { body: Record<string, unknown> }).body;
  t.equal(proxy['proxy_type'], 'eip1967', 'the proxy written in its constructor is seen');

  t.test('frames without state diffs: balances from eth_getBalance, proxies from eth_getStorageAt', async (t) => {
    const logs: string[] = [];
    const source = createRpcChainSource(anvil.url, { retry: { retries: 2, baseDelayMs: 50 }, capabilities: { prestate: false } });
    const store = createMemoryStore();
    await createIndexer({ source, sink: store, batchSize: 10, concurrency: 4, pollIntervalMs: 100, log: (l) => logs.push(l) }).run({ to: scenario.head });
    t.equal(logs.filter((l) => l.startsWith('missing on this node: no state diffs')).length, 1, 'the missing diffs said once');
    const reference = createMemoryStore();
    await createIndexer({ source: createRpcChainSource(anvil.url), sink: reference, batchSize: 10, concurrency: 4, pollIntervalMs: 100, log: () => undefined }).run({ to: scenario.head });
    t.same(await portableView(store, scenario, { gas: true }), await portableView(reference, scenario, { gas: true }), 'internal transactions, creations and proxies as with diffs');
    t.same(await servedBalances(store, [...scenario.addresses, scenario.miner]), await servedBalances(reference, [...scenario.addresses, scenario.miner]), 'every coin balance as with diffs');
  });

  t.test('a forced rung the node refuses is an error naming it', async (t) => {
    const filter = await startRpcFilter(anvil.url, (c) => (c.method === 'trace_block' ? refused(c.method) : undefined));
    t.teardown(() => filter.stop());
    const source = createRpcChainSource(filter.url, { retry: { retries: 1, baseDelayMs: 10 }, traceMode: 'parity' });
    await t.rejects(source.capabilities(), /--trace-mode parity: the node does not serve it/);
  });

  t.test('a node that ignores `tracer` (Ganache answers callTracer with opcode steps) gets the structlog rung', async (t) => {
    const filter = await startRpcFilter(anvil.url, (c) => {
      if (c.method === 'debug_traceBlockByNumber' || c.method === 'trace_block') return refused(c.method);
      if (c.method === 'debug_traceTransaction') return { result: { gas: 21000, returnValue: '', structLogs: [] } };
      return undefined;
    });
    t.teardown(() => filter.stop());
    const caps = await createRpcChainSource(filter.url, { retry: { retries: 1, baseDelayMs: 10 } }).capabilities();
    t.same({ traceMode: caps.traceMode, prestate: caps.prestate }, { traceMode: 'structlog', prestate: false });
  });

  t.test('none, forced: no frames, said loudly', async (t) => {
    const { logs, caps } = await indexThrough(anvil.url, 3, { traceMode: 'none' });
    t.same({ traces: caps.traces, prestate: caps.prestate, traceMode: caps.traceMode }, { traces: false, prestate: false, traceMode: 'none' });
    t.equal(logs.filter((l) => l.startsWith('missing on this node: no call traces')).length, 1, 'the missing frames said once');
  });

  t.test('the transaction rung failing for one transaction holds its block, then stores it whole', async (t) => {
    const victim = scenario.facts.txs.routerSplit.toLowerCase();
    let failures = 2;
    const filter = await startRpcFilter(anvil.url, (c) => {
      if (c.method === 'debug_traceBlockByNumber') return refused(c.method);
      if (c.method === 'debug_traceTransaction' && String(c.params?.[0]).toLowerCase() === victim && failures > 0) {
        failures--;
        return { error: { code: -32000, message: 'tracing failed: state unavailable' } };
      }
      return undefined;
    });
    t.teardown(() => filter.stop());
    const held: string[] = [];
    const store = createMemoryStore();
    await createIndexer({
      source: createRpcChainSource(filter.url, { retry: { retries: 0, baseDelayMs: 10 } }),
      sink: store,
      batchSize: 1000,
      concurrency: 4,
      pollIntervalMs: 100,
      hold: { baseDelayMs: 10, maxDelayMs: 50 },
      log: () => undefined,
      onEvent: (e) => {
        if (e.type === 'held') held.push(e.message);
      },
    }).run({ to: scenario.head });
    t.equal(failures, 0, 'the trace failed twice');
    t.ok(held.some((m) => /the transaction rung's frames failed/.test(m)), `the block was held (${held[0] ?? 'no hold'})`);
    t.same(await exactView(store, { ...scenario, addresses: [...scenario.addresses, scenario.miner] }), views.get('transaction'), 'then stored whole');
  });

  t.test('a rung answering garbage holds its block and stores none of it', async (t) => {
    const target = `0x${(scenario.head - 1).toString(16)}`;
    let garbage = 3;
    const filter = await startRpcFilter(anvil.url, (c) => {
      if (c.method === 'debug_traceBlockByNumber' || c.method === 'debug_traceTransaction') return refused(c.method);
      if (c.method === 'trace_block' && c.params?.[0] === target && garbage > 0) {
        garbage--;
        return { result: [{ type: 'call', transactionHash: '0x12', traceAddress: [7] }] };
      }
      return undefined;
    });
    t.teardown(() => filter.stop());
    const logs: string[] = [];
    const source = createRpcChainSource(filter.url, { retry: { retries: 0, baseDelayMs: 10 } });
    const store = createMemoryStore();
    const held: string[] = [];
    await createIndexer({
      source,
      sink: store,
      batchSize: 1000,
      concurrency: 4,
      pollIntervalMs: 100,
      hold: { baseDelayMs: 10, maxDelayMs: 50 },
      log: (l) => logs.push(l),
      onEvent: (e) => {
        if (e.type === 'held') held.push(e.message);
      },
    }).run({ to: scenario.head });
    t.equal(garbage, 0, 'the garbage was answered three times');
    t.ok(held.length >= 3 && held.every((m) => /the parity rung's frames failed/.test(m)), `the block was held (${held[0] ?? 'no hold'})`);
    t.same(await exactView(store, { ...scenario, addresses: [...scenario.addresses, scenario.miner] }), views.get('parity'), 'then stored whole, as the parity rung stores it');
  });
});
