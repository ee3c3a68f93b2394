/**
 * `npx tsx bench/decode-hits.ts`: how much of a chain the known signatures decode (no verified
 * contract: the standard methods and events, then the generated signature table), on the
 * fixture chain and on the demo scenario (anvil, indexed into a memory store). Counts calls to
 * a contract with a selector and logs with a topic0; "table" is the signature table alone.
 */
import type { LogRecord, TransactionRecord } from '../lib/domain/records.ts';
import type { DataSource } from '../lib/ports.ts';
import { decodeCall, decodeEvent } from '../lib/decode/decoder.ts';
import { decodeLogRecord, decodeTransactionInput } from '../lib/render/decode.ts';
import { signatureIndex, signatureTableSize } from '../lib/signatures/index.ts';
import { createMemoryStore } from '../adapters/memory/index.ts';
import { loadFixtureChain } from '../fixture/index.ts';
import { startAnvil } from '../demo/anvil.ts';
import { runScenario } from '../demo/scenario.ts';
import { indexerFor } from '../test/indexer/helpers.ts';

const tableOnly = { own: [], kind: null, verified: null, known: signatureIndex } as const;
const pct = (n: number, d: number): string => `${n}/${d} (${d === 0 ? '-' : ((100 * n) / d).toFixed(1)}%)`;

async function measure(name: string, ds: DataSource): Promise<void> {
  const txs: TransactionRecord[] = [...(await ds.listTransactions({ status: 'validated' }, { after: null, limit: 100_000, order: 'asc' }))];
  const contracts = new Set((await ds.getAddresses([...new Set(txs.flatMap((t) => (t.to === null ? [] : [t.to])))])).filter((a) => a.isContract).map((a) => a.hash));
  const calls = txs.filter((t) => t.to !== null && contracts.has(t.to) && t.input.length >= 10);
  const logs: LogRecord[] = [...(await ds.listLogs({}, { after: null, limit: 100_000, order: 'asc' }))].filter((l) => l.topics.length > 0);
  const known = calls.filter((t) => decodeTransactionInput(t, {}) !== null).length;
  const table = calls.filter((t) => decodeCall(tableOnly, t.input) !== null).length;
  const knownLogs = logs.filter((l) => decodeLogRecord(l, {}) !== null).length;
  const tableLogs = logs.filter((l) => decodeEvent(tableOnly, l.topics, l.data) !== null).length;
  process.stdout.write(`${name}: calls decoded ${pct(known, calls.length)}, by the table alone ${pct(table, calls.length)}; logs decoded ${pct(knownLogs, logs.length)}, by the table alone ${pct(tableLogs, logs.length)}\n`);
}

const size = signatureTableSize();
process.stdout.write(`signature table: ${size.functions} function selectors, ${size.errors} error selectors, ${size.events} event topics\n`);
const fixture = createMemoryStore();
await loadFixtureChain(fixture);
await measure('fixture chain', fixture);
const anvil = await startAnvil();
try {
  await runScenario(anvil.url, { rounds: 2 });
  const demo = createMemoryStore();
  await indexerFor(anvil.url, demo).run();
  await measure('demo scenario', demo);
} finally {
  await anvil.stop();
}
