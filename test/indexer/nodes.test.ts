/**
 * Any node: the ladder scenario run on Hardhat 3's `hardhat node` (EDR: debug_traceTransaction
 * with callTracer and prestateTracer, no block method) and Hardhat 2's (opcode steps only), each
 * indexed through the JSON-RPC source the CLI uses, and compared with what anvil gives for the
 * same deterministic scenario: the rung taken and said once, internal transactions (Hardhat 3:
 * equal to its own callTracer frames too), every address's coin balance equal to the node's
 * eth_getBalance, contracts created by contracts and proxies as on anvil.
 */
import t from 'tap';
import { createIndexer } from '../../lib/indexer/index.ts';
import { createRpcChainSource } from '../../adapters/rpc/index.ts';
import { createMemoryStore } from '../../adapters/memory/index.ts';
import { parseFrame } from '../../adapters/rpc/parse.ts';
import { walkFrames } from '../../lib/ingest/traces.ts';
import { startAnvil } from '../../demo/anvil.ts';
import { startHardhatNode } from '../support/hardhatNode.ts';
import { exactView, portableView, servedBalances } from './ladderView.ts';
import { runLadderScenario } from './ladderScenario.ts';
import type { LadderScenario } from './ladderScenario.ts';
import { rpc, toHex } from './helpers.ts';

async function indexed(url: string, scenario: LadderScenario) {
  const logs: string[] = [];
  const source = createRpcChainSource(url, { retry: { retries: 2, baseDelayMs: 50 } });
  const store = createMemoryStore();
  await createIndexer({ source, sink: store, batchSize: 10, concurrency: 4, pollIntervalMs: 100, log: (l) => logs.push(l) }).run({ to: scenario.head });
  return { store, logs, caps: await source.capabilities() };
}

t.test('Hardhat 3 and Hardhat 2 give anvil\'s records', async (t) => {
  const anvil = await startAnvil();
  t.teardown(() => anvil.stop());
  const onAnvil = await runLadderScenario(anvil.url);
  const reference = await indexed(anvil.url, onAnvil);
  const expected = await portableView(reference.store, onAnvil, { gas: false });

  for (const [version, mode] of [[3, 'transaction'], [2, 'structlog']] as const) {
    await t.test(`Hardhat ${version}`, async (t) => {
      const node = await startHardhatNode(version);
      if (node === null) {
        t.comment(`SKIPPED: Hardhat ${version}'s node did not start (said above; under CI=true it is required)`);
        return;
      }
      t.teardown(() => node.stop());
      const scenario = await runLadderScenario(node.url);
      t.equal(scenario.transactions.length, onAnvil.transactions.length, 'the same scenario');
      const { store, logs, caps } = await indexed(node.url, scenario);
      t.equal(caps.traceMode, mode, `the ${mode} rung`);
      t.equal(caps.prestate, mode === 'transaction', mode === 'transaction' ? 'state diffs' : 'no state diffs');
      const said = logs.filter((l) => l.startsWith('tracing: ') || l.startsWith('missing on this node'));
      t.equal(new Set(said).size, said.length, `each capability line once: ${said.join(' | ')}`);

      const view = await portableView(store, scenario, { gas: false });
      t.same(view, expected, 'internal transactions, creations and proxies as on anvil');

      const everyone = [...scenario.addresses, scenario.miner];
      const balances = await servedBalances(store, everyone);
      for (const a of everyone) {
        const onNode = BigInt((await rpc(node.url, 'eth_getBalance', [a, toHex(scenario.head)])) as string);
        const served = balances.get(a);
        if (onNode === 0n && served === null) continue;
        t.equal(served, onNode.toString(), `${a}: coin balance = eth_getBalance`);
      }

      if (version === 3) {
        // the node's own frames, as stored (raw-trace), field by field
        const stored = await exactView(store, { transactions: scenario.transactions, addresses: [] });
        let frames = 0;
        for (const hash of scenario.transactions) {
          const own = walkFrames(parseFrame(await rpc(node.url, 'debug_traceTransaction', [hash, { tracer: 'callTracer' }]))).map(({ frame }) => [frame.from, frame.to, `0x${(frame.value ?? 0n).toString(16)}`, frame.error !== null]);
          const raw = (stored[`raw ${hash}`] as { body: { action: Record<string, string>; result?: Record<string, string>; error?: string }[] }).body;
          const kept = raw.map((f) => [f.action['from'], f.action['to'] ?? f.result?.['address'] ?? null, f.action['value'] ?? '0x0', f.error !== undefined]);
          t.same(kept, own, `${hash}: the node's ${own.length} frame(s), stored`);
          frames += own.length;
        }
        t.ok(frames > scenario.transactions.length, `${frames} frames in all`);
      }
    });
  }
});
