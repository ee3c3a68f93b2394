/**
 * Coin-balance history items as Blockscout lists them (/addresses/{h}/coin-balance-history),
 * shared by that answer and the socket's `coin_balance` event so the two are the same object:
 * `delta` = this value − the next older one (the oldest: its value), zero deltas left out;
 * `transaction_hash` = the block's first transaction of the address that moves value or pays
 * gas, else the parent of a successful value-moving trace of it, else null; `block_timestamp`
 * interpolated by block number between the lowest and highest blocks of the items rendered
 * together (one item alone: its block's own timestamp).
 */
import type { Address, CoinBalanceRecord, Hash } from '../domain/records.ts';
import type * as t from 'io-ts';
import type { CoinBalance } from '../schema/coinBalance.ts';
import type { CoinBalanceCursor, DataSource } from '../ports.ts';
import { iso } from './format.ts';

/** a balance record and how it differs from the next older one */
export interface CoinBalanceChange {
  readonly record: CoinBalanceRecord;
  readonly delta: bigint;
}

/** Up to `want` changes with a non-zero delta after the cursor, newest first (each needs the next older record). */
export async function readCoinBalanceChanges(ds: DataSource, address: Address, after: CoinBalanceCursor | null, want: number): Promise<CoinBalanceChange[]> {
  const records: CoinBalanceRecord[] = [];
  let cursor = after;
  let exhausted = false;
  const changes = (): CoinBalanceChange[] => {
    const out: CoinBalanceChange[] = [];
    records.forEach((record, i) => {
      const older = records[i + 1];
      if (older === undefined && !exhausted) return;
      const delta = record.value - (older?.value ?? 0n);
      if (delta !== 0n) out.push({ record, delta });
    });
    return out;
  };
  for (;;) {
    const batch = await ds.listCoinBalances({ address }, { after: cursor, limit: want + 1, order: 'desc' });
    records.push(...batch);
    const last = batch[batch.length - 1];
    if (batch.length < want + 1 || last === undefined) {
      exhausted = true;
      return changes();
    }
    const found = changes();
    if (found.length >= want) return found;
    cursor = { blockNumber: last.blockNumber };
  }
}

/** How many of the address's transactions and traces in the items' blocks are read to name the changing transaction. */
export const CHANGE_LOOKUP_LIMIT = 1000;

/** The transaction that changed the balance in each block (Blockscout's rule; see the module comment). */
async function changingTransactions(ds: DataSource, address: Address, blocks: readonly number[]): Promise<Map<number, Hash>> {
  const found = new Map<number, Hash>();
  if (blocks.length === 0) return found;
  const range = { from: Math.min(...blocks), to: Math.max(...blocks) };
  const wanted = new Set(blocks);
  const txs = await ds.listTransactions({ status: 'validated', address, blocks: range }, { after: null, limit: CHANGE_LOOKUP_LIMIT, order: 'asc' });
  for (const tx of txs) {
    const n = tx.blockNumber;
    if (n === null || !wanted.has(n) || found.has(n)) continue;
    const paysGas = tx.gasPrice !== null && tx.gasPrice > 0n && tx.gasUsed !== null && tx.gasUsed > 0n;
    if (tx.value > 0n || paysGas) found.set(n, tx.hash);
  }
  if (blocks.every((n) => found.has(n))) return found;
  const traces = await ds.listInternalTransactions({ address, blocks: range }, { after: null, limit: CHANGE_LOOKUP_LIMIT, order: 'asc' });
  for (const it of traces) {
    if (!wanted.has(it.blockNumber) || found.has(it.blockNumber)) continue;
    if (it.error === null && it.value > 0n && ['call', 'create', 'create2', 'selfdestruct'].includes(it.type)) found.set(it.blockNumber, it.transactionHash);
  }
  return found;
}

/**
 * Blockscout's timestamps: linear in the block number between the two end blocks, whole
 * seconds. Were an end block not in the store (a reorg removed it after its balances were
 * read), each block's own timestamp; a block the store no longer holds has none.
 */
async function timestamps(ds: DataSource, blocks: readonly number[]): Promise<(n: number) => number | null> {
  if (blocks.length === 0) return () => null;
  const lo = Math.min(...blocks);
  const hi = Math.max(...blocks);
  const [low, high] = await Promise.all([ds.getBlock({ number: lo }), ds.getBlock({ number: hi })]);
  if (low !== null && high !== null) {
    if (hi === lo) return () => low.timestamp;
    return (n) => Math.floor(low.timestamp + ((high.timestamp - low.timestamp) * (n - lo)) / (hi - lo));
  }
  const own = await Promise.all([...new Set(blocks)].map(async (n) => [n, (await ds.getBlock({ number: n }))?.timestamp ?? null] as const));
  const timeOf = new Map(own);
  return (n) => timeOf.get(n) ?? null;
}

/** a coin-balance-history item, as its schema types it */
export type CoinBalanceJson = t.OutputOf<typeof CoinBalance>;

/**
 * The items of these changes of one address, in their order; a change whose block the store
 * no longer holds (removed by a reorg since it was read) is gone with it.
 */
export async function renderCoinBalanceChanges(ds: DataSource, address: Address, rows: readonly CoinBalanceChange[]): Promise<CoinBalanceJson[]> {
  const blocks = rows.map((c) => c.record.blockNumber);
  const [hashes, timeOf] = await Promise.all([changingTransactions(ds, address, blocks), timestamps(ds, blocks)]);
  return rows.flatMap(({ record, delta }) => {
    const ts = timeOf(record.blockNumber);
    if (ts === null) return [];
    return [
      {
        block_number: record.blockNumber,
        block_timestamp: iso(ts),
        delta: delta.toString(),
        transaction_hash: hashes.get(record.blockNumber) ?? null,
        value: record.value.toString(),
      },
    ];
  });
}
