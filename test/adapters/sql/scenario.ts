/**
 * Scenario helpers of the SQL write-side tests: the fixture chain, a few extra blocks (a
 * replacement head, a non-consensus sibling, a block mining a pending transaction), batched
 * writes, and the comparison of two digests.
 */
import type { Test } from 'tap';
import type { Address, BlockBundle, BlockRecord, Hash, ProxyRecord, TransactionRecord } from '../../../lib/domain/records.ts';
import type { DataSink, DataSource } from '../../../lib/ports.ts';
import { buildFixtureChain } from '../../../fixture/index.ts';
import type { ChainKeys, DigestEntry, DigestOptions } from './digest.ts';
import { chainKeys, digest } from './digest.ts';

export type Store = DataSource & DataSink;

export const chain = buildFixtureChain();
export const { pending } = chain;

/**
 * The fixture's blocks, and proxy changes (the fixture has none): in every 7th block and the
 * head, an address of its calls not yet a proxy becomes one (a callee an EIP-1967 proxy of its
 * sender, a sender an EIP-7702 delegation to its callee; when all are, an address nothing else
 * names), so that replacement, rollback and rewrites also move what getProxyHistory and
 * getAddressViews answer.
 */
const proxied = new Set<string>();
function withProxy(b: BlockBundle): BlockBundle {
  const change = (call: TransactionRecord, proxy: Address, type: ProxyRecord['type'], implementation: Address): BlockBundle => {
    proxied.add(proxy);
    return { ...b, proxies: [{ proxy, type, implementations: [implementation], beacon: null, blockNumber: b.block.number, transactionHash: call.hash, transactionIndex: call.index ?? 0 }] };
  };
  for (const call of b.transactions) {
    if (call.to === null) continue;
    if (!proxied.has(call.to)) return change(call, call.to, 'eip1967', call.from);
    if (!proxied.has(call.from)) return change(call, call.from, 'eip7702', call.to);
  }
  // every address of its calls is one already: one no other row names (a proxy created before the range)
  const first = b.transactions[0];
  return first === undefined ? b : change(first, `0x${'9e'.repeat(18)}${b.block.number.toString(16).padStart(4, '0')}` as Address, 'eip1967', first.from);
}
export const bundles: readonly BlockBundle[] = chain.bundles.map((b, i, all) => (b.block.consensus && (b.block.number % 7 === 0 || i === all.length - 1) ? withProxy(b) : b));
export const head = bundles[bundles.length - 1];
export const fakeHash = (tag: string, n: number): Hash => `0x${tag.padEnd(8, '0')}${n.toString(16).padStart(56, '0')}` as Hash;

/** A block with no rows (for reorg replacement). */
export function emptyBundle(base: BlockRecord, hash: Hash, consensus: boolean): BlockBundle {
  const block: BlockRecord = { ...base, hash, consensus, transactionsCount: 0, internalTransactionsCount: 0, transactionFees: 0n, burntFees: 0n, priorityFee: 0n };
  return { block, transactions: [], internalTransactions: [], logs: [], tokenTransfers: [], tokens: [], tokenBalances: [], coinBalances: [], tokenInstances: [], addresses: [], stateChanges: [] };
}

/** A non-consensus sibling of a bundle carrying the same transactions. */
function reorgSibling(b: BlockBundle, hash: Hash): BlockBundle {
  return {
    ...emptyBundle(b.block, hash, false),
    transactions: b.transactions.map((tx) => ({ ...tx, blockHash: hash })),
  };
}

/** A block above the head that mines the first pending transaction. */
function miningBlock(): BlockBundle {
  const hash = fakeHash('beef', 151);
  const base = emptyBundle({ ...head.block, number: head.block.number + 1, parentHash: head.block.hash, timestamp: head.block.timestamp + 12 }, hash, true);
  const p = pending[0];
  const tx = { ...p, blockNumber: base.block.number, blockHash: hash, index: 0, timestamp: base.block.timestamp, status: 'ok' as const, gasUsed: 21000n };
  return { ...base, block: { ...base.block, transactionsCount: 1 }, transactions: [tx] };
}

export const extras = [emptyBundle(head.block, fakeHash('aaaa', 150), true), reorgSibling(bundles[140], fakeHash('bbbb', 140)), miningBlock()];
export const keys: ChainKeys = chainKeys([...bundles, ...extras], pending);
/** a lighter digest for repeated snapshots */
export const snap = (ds: DataSource, options: DigestOptions = { limit: 25, stride: 5, light: true }): Promise<DigestEntry[]> =>
  digest(ds, keys, options);

export async function writeAll(sink: DataSink, list: readonly BlockBundle[], batch: number): Promise<void> {
  for (let i = 0; i < list.length; i += batch) await sink.writeBlocks(list.slice(i, i + batch));
}

export function compare(t: Test, actual: readonly DigestEntry[], expected: readonly DigestEntry[], what: string): void {
  let bad = 0;
  for (let i = 0; i < expected.length; i++) {
    const a = actual[i];
    const e = expected[i];
    if (a === undefined || a.label !== e.label || !same(a.value, e.value)) {
      bad++;
      if (bad <= 5) t.strictSame(a?.value, e.value, `${what}: ${e.label}`);
    }
  }
  t.equal(bad, 0, `${what}: ${expected.length} reads identical`);
}

function same(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.entries(a).filter(([, v]) => v !== undefined);
  const kb = Object.entries(b).filter(([, v]) => v !== undefined);
  if (ka.length !== kb.length) return false;
  const mb = new Map(kb);
  return ka.every(([k, v]) => mb.has(k) && same(v, mb.get(k)));
}
