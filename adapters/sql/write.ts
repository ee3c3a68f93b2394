/**
 * The DataSink over SQL, composed from one module per table group in write/. Semantics follow
 * the memory reference adapter (lib/ports.ts):
 * - a call is one database transaction: it applies whole or not at all;
 * - a block already stored (same hash) is skipped; a new consensus block at an occupied height
 *   replaces the consensus block there (and everything it brought) — write/plan.ts;
 * - non-consensus blocks keep only the block and its transactions (lists and current state
 *   see consensus blocks only) — write/insert.ts;
 * - current values (tokens, addresses, instances, balances, ERC-721 owners) are the latest
 *   history row by (block_number, seq) and are recomputed from history for every key a call
 *   touched, so rollback and replacement restore them exactly; holders_count moves by the
 *   change in (token, holder) pairs holding a positive balance — write/current.ts;
 * - per-address counters, the coin supply, chain statistics and the data version move inside
 *   the same transaction (write/counters.ts, write/supply.ts, write/stats.ts);
 * - a pending row leaves when its transaction is mined in a consensus block, or when the
 *   indexer drops it (replaced, or gone from the node's pool).
 */
import type { Knex } from 'knex';
import type { Address, BlockBundle, Hash, Hex, TransactionRecord, UserOperationRecord } from '../../lib/domain/records.ts';
import type { BlockSink, StoredPending } from '../../lib/ports.ts';
import { validateBundle, validatePending } from '../../lib/sink/validate.ts';
import type { Dialect } from './dialect.ts';
import { asRows, num, str, address, hash } from './rows.ts';
import { beginBulk, inBulk, restoreDeferred } from './bulk.ts';
import { Affected } from './write/batch.ts';
import { indexedHead } from './write/blocks.ts';
import { CounterDeltas, applyCounterDeltas, removePending } from './write/counters.ts';
import { applyFresh, refreshCurrent } from './write/current.ts';
import { insertNewBlocks } from './write/insert.ts';
import { planWrite } from './write/plan.ts';
import { removeBlocks } from './write/remove.ts';
import { beginStatsWrite } from './write/stats.ts';
import { syncAddressViews } from './write/views.ts';
import { applySupplyDelta } from './write/supply.ts';
import { insertPending } from './write/transactions.ts';
import { blocksWithLogs, replaceUserOperations } from './write/userOperations.ts';
import type { Change } from '../../lib/feed/change.ts';
import { changeOfBundles, createLocalFeed, pendingChange, rollbackChange } from '../../lib/feed/change.ts';
import { logChange } from './feed.ts';

export interface SqlWriterMode {
  /** tests: never take the append-only path (recompute current values from history always) */
  readonly recomputeAlways?: boolean;
}

/** Readers compare this counter to tell whether cached answers are stale (DataSource.getDataVersion). */
async function bumpDataVersion(trx: Knex.Transaction): Promise<void> {
  await trx('data_version').where('id', 1).increment('version', 1);
}

/** Move the address counters by a write's deltas, and the coin supply by the balances they changed. */
async function applyCounters(trx: Knex.Transaction, d: Dialect, counters: CounterDeltas, appending: boolean): Promise<void> {
  await applySupplyDelta(trx, d, await applyCounterDeltas(trx, d, counters, appending));
}

async function writeBlocks(trx: Knex.Transaction, d: Dialect, bundles: readonly BlockBundle[], mode: SqlWriterMode): Promise<Change | null> {
  const plan = await planWrite(trx, bundles);
  if (plan === null) return null;
  // a reorg: the lowest height replaced (its blocks are removed below)
  const lowest = plan.removed.length === 0 ? null : asRows(await trx('blocks').min({ m: 'number' }).whereIn('hash', plan.removed))[0]?.['m'];
  const rolledBackTo = lowest === null || lowest === undefined ? null : Number(lowest) - 1;
  const fast = plan.appending && mode.recomputeAlways !== true;
  const affected = new Affected();
  const stats = await beginStatsWrite(trx, d, plan.removed, plan.planned);
  await removeBlocks(trx, d, plan.removed, affected);
  const fresh = await insertNewBlocks(trx, d, plan.planned, affected);
  await stats.finish();
  if (fast) await applyFresh(trx, d, fresh);
  else await refreshCurrent(trx, d, affected);
  await syncAddressViews(trx, d, affected);
  await applyCounters(trx, d, affected.counters, fast);
  await bumpDataVersion(trx);
  const change = changeOfBundles(0, plan.planned, rolledBackTo, affected.minedPending);
  return { ...change, version: (await logChange(trx, d, change)).version };
}

async function rollbackAbove(trx: Knex.Transaction, d: Dialect, height: number): Promise<Change | null> {
  const hashes = asRows(await trx('blocks').select('hash').where('number', '>', height)).map((r) => str(r, 'hash') as Hash);
  if (hashes.length === 0) return null;
  const affected = new Affected();
  const stats = await beginStatsWrite(trx, d, hashes, []);
  await removeBlocks(trx, d, hashes, affected);
  await stats.finish();
  await refreshCurrent(trx, d, affected);
  await syncAddressViews(trx, d, affected);
  await applyCounters(trx, d, affected.counters, false);
  await bumpDataVersion(trx);
  return rollbackChange((await logChange(trx, d, rollbackChange(0, height))).version, height);
}

async function writePending(trx: Knex.Transaction, d: Dialect, firsts: ReadonlyMap<Hash, TransactionRecord>): Promise<Change | null> {
  const counters = new CounterDeltas();
  // the hashes not stored yet: what this write adds
  const hashes = [...firsts.keys()];
  const known = new Set<string>();
  for (const table of ['transactions', 'pending_transactions']) {
    for (let i = 0; i < hashes.length; i += 500) {
      for (const r of asRows(await trx(table).select('hash').whereIn('hash', hashes.slice(i, i + 500)))) known.add(str(r, 'hash'));
    }
  }
  if (!(await insertPending(trx, d, firsts, counters))) return null;
  await applyCounters(trx, d, counters, true);
  await bumpDataVersion(trx);
  const change = pendingChange(0, [...firsts.values()].filter((t) => !known.has(t.hash)));
  return { ...change, version: (await logChange(trx, d, change)).version };
}

/** Delete pending rows that left the node's pool (replaced or gone), and what they counted. */
async function dropPending(trx: Knex.Transaction, d: Dialect, hashes: readonly Hash[]): Promise<Change | null> {
  const counters = new CounterDeltas();
  const removed = await removePending(trx, d, hashes, counters);
  if (removed.length === 0) return null;
  await applyCounters(trx, d, counters, false);
  await bumpDataVersion(trx);
  const change = pendingChange(0, [], removed);
  return { ...change, version: (await logChange(trx, d, change)).version };
}

/** The stored pending transactions (hash, sender, nonce), newest first, at most `limit`. */
async function storedPending(knex: Knex, limit: number): Promise<StoredPending[]> {
  const rows = asRows(
    await knex('pending_transactions')
      .select('hash', 'from_address', 'nonce')
      .orderBy([
        { column: 'inserted_at', order: 'desc' },
        { column: 'hash', order: 'asc' },
      ])
      .limit(limit),
  );
  return rows.map((r) => ({ hash: hash(r, 'hash'), from: address(r, 'from_address'), nonce: num(r, 'nonce') }));
}

export function createSqlWriter(
  knex: Knex,
  d: Dialect,
  mode: SqlWriterMode = {},
): BlockSink &
  Required<Pick<BlockSink, 'blocksWithLogs' | 'writeUserOperations'>> & { settle(): Promise<void>; beginBulk(): Promise<void>; inBulk(): Promise<boolean>; readonly localFeed: ReturnType<typeof createLocalFeed> } {
  // this process's writes, announced synchronously after each commit
  const localFeed = createLocalFeed();
  const announce = (change: Change | null): void => {
    if (change !== null) localFeed.emit(change);
  };
  return {
    localFeed,
    async writeBlocks(bundles: readonly BlockBundle[]): Promise<void> {
      // checked, not copied: rows are built from the caller's records during this call (which
      // must not change them until it settles), and nothing keeps a reference afterwards
      for (const b of bundles) validateBundle(b);
      if (bundles.length === 0) return;
      announce(await knex.transaction((trx) => writeBlocks(trx, d, bundles, mode)));
    },

    async writePendingTransactions(transactions: readonly TransactionRecord[]): Promise<void> {
      validatePending(transactions);
      const firsts = new Map<Hash, TransactionRecord>();
      for (const t of transactions) if (!firsts.has(t.hash)) firsts.set(t.hash, t);
      if (firsts.size === 0) return;
      announce(await knex.transaction((trx) => writePending(trx, d, firsts)));
    },

    async pendingTransactions(limit: number): Promise<readonly StoredPending[]> {
      if (!Number.isSafeInteger(limit) || limit < 0) throw new TypeError(`pendingTransactions: bad limit ${String(limit)}`);
      return storedPending(knex, limit);
    },

    async dropPendingTransactions(hashes: readonly Hash[]): Promise<void> {
      const unique = [...new Set(hashes)];
      if (unique.length === 0) return;
      announce(await knex.transaction((trx) => dropPending(trx, d, unique)));
    },

    async rollbackAbove(height: number): Promise<void> {
      if (typeof height !== 'number' || Number.isNaN(height)) throw new TypeError(`rollbackAbove: bad height ${String(height)}`);
      announce(await knex.transaction((trx) => rollbackAbove(trx, d, height)));
    },

    async beginBulk(): Promise<void> {
      await beginBulk(knex, d);
    },

    inBulk: () => inBulk(knex),

    async settle(): Promise<void> {
      await restoreDeferred(knex, d);
      await d.settle(knex);
    },

    getIndexedHead: () => indexedHead(knex),

    blocksWithLogs: (addresses: readonly Address[], topic0: Hex) => blocksWithLogs(knex, addresses, topic0),

    async writeUserOperations(blockHash: Hash, operations: readonly UserOperationRecord[]): Promise<boolean> {
      const change = await knex.transaction(async (trx) => {
        // the backfill writes blocks side by side: one at a time here, or two of them moving the
        // same parties' counts (taken off, then added, in two statements) deadlock on Postgres
        await d.exclusive(trx, 'user_operations');
        if (!(await replaceUserOperations(trx, d, blockHash, operations))) return null;
        await bumpDataVersion(trx);
        const empty = pendingChange(0, []);
        return { ...empty, version: (await logChange(trx, d, empty)).version };
      });
      announce(change);
      return change !== null;
    },
  };
}
