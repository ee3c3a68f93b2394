/**
 * The per-address counters and current coin balance the SQL sink keeps in address_counters
 * (migration 008), inside the write's own database transaction:
 * - every row a write adds or deletes adds or takes back its contribution (CounterDeltas):
 *   transactions of consensus blocks and pending ones (a pending row mined gives its place to
 *   the mined row), token transfers of consensus blocks, every stored block for its miner;
 * - the current coin balance comes from the batch on the append-only path, and is re-read from
 *   coin_balances (the latest record, an index seek per address) for the addresses a removal
 *   or an out-of-order write touched;
 * - the effective transactions count follows the address's current contract status, so it is
 *   recomputed for every address whose counters or address record the write touched.
 * A rollback therefore leaves exactly the counts of the rows that remain. The change of current
 * balances is returned (SupplyDelta) for the kept coin supply (./supply.ts).
 */
import type { Knex } from 'knex';
import type { Address, BlockBundle, Hash, TransactionRecord } from '../../../lib/domain/records.ts';
import type { Dialect } from '../dialect.ts';
import { toBig } from '../dialect.ts';
import type { Row, WriteRow } from '../rows.ts';
import { asRows, big, bool, num, str } from '../rows.ts';
import { BULK_ROWS, KEY_CHUNK, chunks, keyRows, upsertRows } from '../sql.ts';
import { SupplyDelta } from './supply.ts';
import type { CounterParts } from '../../../lib/stats/addressCounters.ts';
import { CounterPartsTable, transactionsCountOf, zeroParts } from '../../../lib/stats/addressCounters.ts';

/** What one write changes: counter deltas and the addresses whose derived columns must be redone. */
export class CounterDeltas extends CounterPartsTable {
  /** current balance candidates from the inserted coin balance rows (latest per address) */
  readonly fresh = new Map<Address, { readonly value: bigint; readonly block: number }>();
  /** addresses whose current balance is re-read from coin_balances */
  readonly recount = new Set<Address>();
  /** addresses whose address record (contract status) may have changed */
  readonly records = new Set<Address>();

  constructor() {
    super(false);
  }
}

const addr = (r: Row, c: string): Address => str(r, c) as Address;
const addrOrNull = (r: Row, c: string): Address | null => (r[c] === null || r[c] === undefined ? null : addr(r, c));
const gasOf = (r: Row): bigint | null => (r.gas_used === null || r.gas_used === undefined ? null : big(r, 'gas_used'));

/** Before blocks are deleted: take back what their rows counted. */
export async function countRemovedBlocks(trx: Knex.Transaction, hashes: readonly Hash[], acc: CounterDeltas): Promise<void> {
  for (const part of chunks(hashes, KEY_CHUNK)) {
    for (const r of asRows(await trx('blocks').select('miner').whereIn('hash', part))) acc.block(addr(r, 'miner'), -1n);
    const txs = asRows(await trx('transactions').select('from_address', 'to_address', 'gas_used').whereIn('block_hash', part).andWhere('consensus', true));
    for (const r of txs) acc.transaction(addr(r, 'from_address'), addrOrNull(r, 'to_address'), gasOf(r), -1n);
    for (const r of asRows(await trx('token_transfers').select('from_address', 'to_address').whereIn('block_hash', part))) {
      acc.transfer(addr(r, 'from_address'), addr(r, 'to_address'), -1n);
    }
    for (const r of asRows(await trx('coin_balances').distinct('address').whereIn('block_hash', part))) acc.recount.add(addr(r, 'address'));
    for (const r of asRows(await trx('address_history').distinct('hash').whereIn('block_hash', part))) acc.records.add(addr(r, 'hash'));
  }
}

/** New blocks (none stored yet): what their rows count. */
export function countInsertedBlocks(bundles: readonly BlockBundle[], acc: CounterDeltas): void {
  for (const { block, transactions, tokenTransfers, coinBalances, addresses } of bundles) {
    acc.block(block.miner, 1n);
    if (!block.consensus) continue;
    for (const t of transactions) acc.transaction(t.from, t.to, t.gasUsed, 1n);
    for (const t of tokenTransfers) acc.transfer(t.from, t.to, 1n);
    for (const c of coinBalances) {
      const prev = acc.fresh.get(c.address);
      if (prev === undefined || c.blockNumber >= prev.block) acc.fresh.set(c.address, { value: c.value, block: c.blockNumber });
    }
    for (const a of addresses) acc.records.add(a.hash);
  }
}

/**
 * Delete these pending rows (mined, replaced or gone from the pool), taking back what they
 * counted; returns the rows deleted (hash and parties).
 */
export async function removePending(
  trx: Knex.Transaction,
  d: Dialect,
  hashes: readonly Hash[],
  acc: CounterDeltas,
): Promise<{ readonly hash: Hash; readonly from: Address; readonly to: Address | null }[]> {
  const removed: { hash: Hash; from: Address; to: Address | null }[] = [];
  for (const part of chunks(hashes, BULK_ROWS)) {
    const keys = keyRows(d, 'pending_transactions', ['hash'], part.map((h) => [h]));
    const deleted = await trx.raw(
      `DELETE FROM pending_transactions WHERE "hash" IN (SELECT "hash" FROM ${keys.sql} k) RETURNING "hash", "from_address", "to_address", "gas_used"`,
      [...keys.bindings],
    );
    for (const r of asRows(d.rawRows(deleted))) {
      const from = addr(r, 'from_address');
      const to = addrOrNull(r, 'to_address');
      removed.push({ hash: str(r, 'hash') as Hash, from, to });
      acc.transaction(from, to, gasOf(r), -1n);
    }
  }
  return removed;
}

/** The rows of `table` whose `column` is one of `values` (one statement per BULK_ROWS values). */
async function rowsWhereIn(trx: Knex.Transaction, d: Dialect, table: string, columns: string, column: string, values: readonly string[]): Promise<Row[]> {
  const out: Row[] = [];
  for (const part of chunks(values, BULK_ROWS)) {
    const keys = keyRows(d, table, [column], part.map((v) => [v]));
    const rows = await trx.raw(`SELECT ${columns} FROM ${table} WHERE "${column}" IN (SELECT "${column}" FROM ${keys.sql} k)`, [...keys.bindings]);
    out.push(...asRows(d.rawRows(rows)));
  }
  return out;
}

/** Pending transactions stored: they count until mined. */
export function countPending(transactions: readonly TransactionRecord[], acc: CounterDeltas): void {
  for (const t of transactions) acc.transaction(t.from, t.to, t.gasUsed, 1n);
}

/** The address_counters columns no index covers (migration 008: the accounts indexes hold listed, balance, transactions_count). */
const UNINDEXED_COUNTERS = ['tx_any', 'tx_to', 'transfers', 'gas_in', 'gas_out', 'validations', 'balance_block'] as const;

/** The latest coin balance record of an address (coin_balances holds consensus rows only). */
async function latestBalance(trx: Knex.Transaction, address: Address): Promise<{ value: bigint; block: number } | null> {
  const rows = asRows(
    await trx('coin_balances')
      .select('value', 'block_number')
      .where('address', address)
      .orderBy([
        { column: 'block_number', order: 'desc' },
        { column: 'seq', order: 'desc' },
      ])
      .limit(1),
  );
  const r = rows[0];
  return r === undefined ? null : { value: big(r, 'value'), block: num(r, 'block_number') };
}

/**
 * Apply a write's deltas to address_counters. `appending`: every inserted row is later than
 * every stored one (nothing removed), so the batch's latest coin balance is the current one.
 */
export async function applyCounterDeltas(trx: Knex.Transaction, d: Dialect, acc: CounterDeltas, appending: boolean): Promise<SupplyDelta> {
  const supply = new SupplyDelta();
  const touched = [...new Set<Address>([...acc.parts.keys(), ...acc.fresh.keys(), ...acc.recount, ...acc.records])];
  if (touched.length === 0) return supply;
  const created: WriteRow[] = [];
  const upserts: WriteRow[] = [];
  const countMoved: WriteRow[] = [];
  const unindexedMoved: WriteRow[] = [];
  const deletes: Address[] = [];
  const stored = new Map<Address, Row>();
  for (const r of await rowsWhereIn(trx, d, 'address_counters', '*', 'address', touched)) stored.set(addr(r, 'address'), r);
  const contracts = new Set<Address>();
  for (const r of await rowsWhereIn(trx, d, 'addresses', '"hash", "is_contract"', 'hash', touched)) {
    if (bool(r, 'is_contract')) contracts.add(addr(r, 'hash'));
  }
  for (const address of touched) {
    const s = stored.get(address);
    const delta = acc.parts.get(address) ?? zeroParts();
    const p: CounterParts = {
      txAny: (s === undefined ? 0n : big(s, 'tx_any')) + delta.txAny,
      txTo: (s === undefined ? 0n : big(s, 'tx_to')) + delta.txTo,
      transfers: (s === undefined ? 0n : big(s, 'transfers')) + delta.transfers,
      gasIn: (s === undefined ? 0n : big(s, 'gas_in')) + delta.gasIn,
      gasOut: (s === undefined ? 0n : big(s, 'gas_out')) + delta.gasOut,
      validations: (s === undefined ? 0n : big(s, 'validations')) + delta.validations,
    };
    const before: { value: bigint; block: number } | null =
      s === undefined || s.balance === null ? null : { value: toBig(s.balance), block: num(s, 'balance_block') };
    let balance = before;
    const fresh = acc.fresh.get(address);
    if (!appending && (fresh !== undefined || acc.recount.has(address))) balance = await latestBalance(trx, address);
    else if (fresh !== undefined && (balance === null || fresh.block >= balance.block)) balance = fresh;
    supply.move(address, before?.value ?? null, balance?.value ?? null);
    if (balance === null && Object.values(p).every((v) => v === 0n)) {
      if (s !== undefined) deletes.push(address);
      continue;
    }
    const row: WriteRow = {
      address,
      tx_any: Number(p.txAny),
      tx_to: Number(p.txTo),
      transfers: Number(p.transfers),
      gas_in: d.big(p.gasIn),
      gas_out: d.big(p.gasOut),
      validations: Number(p.validations),
      transactions_count: Number(transactionsCountOf(p, contracts.has(address))),
      balance: balance === null ? null : d.key(balance.value),
      balance_block: balance === null ? null : balance.block,
      listed: balance !== null && balance.value > 0n,
    };
    if (s === undefined) created.push(row);
    else if ((before?.value ?? null) !== (balance?.value ?? null)) upserts.push(row);
    else if (num(s, 'transactions_count') !== row.transactions_count) countMoved.push(row);
    else unindexedMoved.push(row);
  }
  for (const part of chunks(deletes, KEY_CHUNK)) await trx('address_counters').whereIn('address', part).delete();
  // a stored row takes only the columns that can have changed: SQLite rewrites an index of a
  // row's whenever the update names one of its columns (the accounts indexes: listed, balance, transactions_count)
  await upsertRows(trx, d, 'address_counters', ['address'], [...created, ...upserts]);
  await upsertRows(trx, d, 'address_counters', ['address'], countMoved, [...UNINDEXED_COUNTERS, 'transactions_count']);
  await upsertRows(trx, d, 'address_counters', ['address'], unindexedMoved, UNINDEXED_COUNTERS);
  return supply;
}
