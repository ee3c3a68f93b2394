/**
 * The DataSink over SQL. Semantics follow the memory reference adapter (lib/ports.ts):
 * - a call is one database transaction: it applies whole or not at all;
 * - a block already stored (same hash) is skipped; a new consensus block at an occupied height
 *   replaces the consensus block there (and everything it brought);
 * - non-consensus blocks keep only the block and its transactions (lists and current state
 *   see consensus blocks only);
 * - current values (tokens, addresses, instances, balances, ERC-721 owners) are the latest
 *   history row by (block_number, seq) and are recomputed from history for every key a call
 *   touched, so rollback and replacement restore them exactly; holders_count moves by the
 *   change in (token, holder) pairs holding a positive balance.
 */
import type { Knex } from 'knex';
import type { Address, BlockBundle, Hash, TransactionRecord } from '../../lib/domain/records.ts';
import type { BlockSink } from '../../lib/ports.ts';
import { InvalidWriteError, isListedInternal, validateBundle, validatePending } from '../../lib/sink/validate.ts';
import { CounterDeltas, applyCounterDeltas, countInsertedBlocks, countPending, countRemovedBlocks, removeMinedPending } from './counters.ts';
import type { Dialect } from './dialect.ts';
import { beginStatsWrite } from './stats.ts';
import { applySupplyDelta } from './supply.ts';
import { toBig } from './dialect.ts';
import { TOKEN_SEARCH_COLUMNS, tokenSearchSelect } from './tokenSearch.ts';
import {
  asRows,
  big,
  blockRow,
  contractRow,
  internalRow,
  kindCode,
  logRow,
  num,
  stateChangeRow,
  str,
  tokenRow,
  traceFrameRow,
  transactionRow,
  transferRow,
} from './rows.ts';
import type { Row, WriteRow } from './rows.ts';
import type { Binding, LatestSpec } from './sql.ts';
import { BULK_ROWS, KEY_CHUNK, chunks, insertRows, keyRows, lastPerKey, refreshLatest, uniqueKeys, upsertRows } from './sql.ts';
import { insertWithdrawals, removeWithdrawals, withdrawalRows } from './withdrawals.ts';
import { beginBulk, inBulk, restoreDeferred } from './bulk.ts';

export const ZERO_ADDRESS: Address = '0x0000000000000000000000000000000000000000';

type Key = readonly Binding[];

/** Keys whose current values must be recomputed after a write. */
class Affected {
  readonly balances: Key[] = [];
  readonly tokens: Key[] = [];
  readonly addresses: Key[] = [];
  readonly instances: Key[] = [];
  readonly transferIds: Key[] = [];
  /** per-address counters and current coin balances (./counters.ts) */
  readonly counters = new CounterDeltas();
}

function specs(d: Dialect): Record<'tokens' | 'addresses' | 'instances' | 'owners' | 'balances', LatestSpec> {
  const same = (...cs: string[]) => cs.map((c) => [c, `"${c}"`] as const);
  const byBlock = '"block_number" DESC, "seq" DESC';
  return {
    tokens: {
      history: 'token_history',
      current: 'tokens',
      key: ['address'],
      columns: same('address', 'type', 'name', 'symbol', 'decimals', 'total_supply', 'icon_url', 'exchange_rate'),
      latestFirst: byBlock,
    },
    addresses: {
      history: 'address_history',
      current: 'addresses',
      key: ['hash'],
      columns: same('hash', 'is_contract', 'name', 'creation_transaction_hash', 'creator_address'),
      latestFirst: byBlock,
    },
    instances: {
      history: 'token_instance_history',
      current: 'token_instances',
      key: ['token_address', 'token_id'],
      columns: same('token_address', 'token_id', 'token_type', 'metadata'),
      latestFirst: byBlock,
    },
    owners: {
      history: 'token_transfer_ids',
      current: 'nft_owners',
      key: ['token_address', 'token_id'],
      columns: [...same('token_address', 'token_id', 'token_type'), ['owner', '"to_address"']],
      latestFirst: '"block_number" DESC, "log_index" DESC',
    },
    balances: {
      history: 'token_balance_history',
      current: 'current_token_balances',
      key: ['holder', 'token_address', 'token_id'],
      columns: same('holder', 'token_address', 'token_id', 'token_type', 'value'),
      latestFirst: byBlock,
      keep: { sql: `("value" > ? OR "token_type" = 'ERC-7984')`, bindings: [d.key(0n)] },
    },
  };
}

/** Every table holding rows of a block, with its block-hash column. */
const BLOCK_ROWS: readonly (readonly [string, string])[] = [
  ['transactions', 'block_hash'],
  ['transaction_kinds', 'block_hash'],
  ['internal_transactions', 'block_hash'],
  ['logs', 'block_hash'],
  ['token_transfers', 'block_hash'],
  ['token_transfer_ids', 'block_hash'],
  ['state_changes', 'block_hash'],
  ['token_history', 'block_hash'],
  ['address_history', 'block_hash'],
  ['token_balance_history', 'block_hash'],
  ['coin_balances', 'block_hash'],
  ['token_instance_history', 'block_hash'],
  ['contracts', 'block_hash'],
  ['trace_frames', 'block_hash'],
  ['blocks', 'hash'],
];

/** The history rows one write inserted (in insertion = seq order). */
interface Fresh {
  readonly tokens: readonly WriteRow[];
  readonly addresses: readonly WriteRow[];
  readonly balances: readonly WriteRow[];
  readonly instances: readonly WriteRow[];
  readonly transferIds: readonly WriteRow[];
}

/** The latest row per key: `later(a, b)` tells whether a (met after b) supersedes b. */
function latestRows(rows: readonly WriteRow[], key: readonly string[], later: (a: WriteRow, b: WriteRow) => boolean): WriteRow[] {
  const m = new Map<string, WriteRow>();
  for (const r of rows) {
    const k = key.map((c) => String(r[c])).join('|');
    const prev = m.get(k);
    if (prev === undefined || later(r, prev)) m.set(k, r);
  }
  return [...m.values()];
}

/** The (current column, history column) pairs of a spec's columns (`"x"` = history column x), per spec. */
const columnPairs = new WeakMap<LatestSpec, readonly (readonly [string, string])[]>();

/** A current row from a history row: the spec's columns (`"x"` = history column x). */
function currentRow(spec: LatestSpec, r: WriteRow): WriteRow {
  let pairs = columnPairs.get(spec);
  if (pairs === undefined) {
    pairs = spec.columns.map(([c, e]) => [c, e.slice(1, -1)] as const);
    columnPairs.set(spec, pairs);
  }
  const out: WriteRow = {};
  for (const [c, h] of pairs) out[c] = r[h] ?? null;
  return out;
}

export interface SqlWriterMode {
  /** tests: never take the append-only path (recompute current values from history always) */
  readonly recomputeAlways?: boolean;
}

export function createSqlWriter(knex: Knex, d: Dialect, mode: SqlWriterMode = {}): BlockSink & { settle(): Promise<void>; beginBulk(): Promise<void>; inBulk(): Promise<boolean> } {
  const latest = specs(d);
  /** blocks' highest seq: one entry of blocks_seq (migration 017), whoever wrote last */
  async function highestSeq(trx: Knex.Transaction): Promise<number> {
    const maxSeq = asRows(await trx('blocks').max({ m: 'seq' }))[0];
    return maxSeq === undefined || maxSeq.m === null ? 0 : num(maxSeq, 'm');
  }

  async function selectKeys(trx: Knex.Transaction, table: string, columns: readonly string[], hashes: readonly Hash[]): Promise<Key[]> {
    const out: Key[] = [];
    for (const part of chunks(hashes, KEY_CHUNK)) {
      const rows = asRows(await trx(table).distinct(...columns).whereIn('block_hash', part));
      for (const r of rows) out.push(columns.map((c) => str(r, c)));
    }
    return out;
  }

  /** Delete blocks and every row they brought; record the keys whose current values change. */
  async function removeBlocks(trx: Knex.Transaction, hashes: readonly Hash[], affected: Affected): Promise<void> {
    if (hashes.length === 0) return;
    affected.balances.push(...(await selectKeys(trx, 'token_balance_history', ['holder', 'token_address', 'token_id'], hashes)));
    affected.tokens.push(...(await selectKeys(trx, 'token_history', ['address'], hashes)));
    affected.addresses.push(...(await selectKeys(trx, 'address_history', ['hash'], hashes)));
    affected.instances.push(...(await selectKeys(trx, 'token_instance_history', ['token_address', 'token_id'], hashes)));
    affected.transferIds.push(...(await selectKeys(trx, 'token_transfer_ids', ['token_address', 'token_id'], hashes)));
    await removeWithdrawals(trx, d, hashes);
    await countRemovedBlocks(trx, hashes, affected.counters);
    let contracts = 0;
    for (const part of chunks(hashes, KEY_CHUNK)) {
      const counted = asRows(await trx('contracts').whereIn('block_hash', part).count({ n: '*' }))[0];
      contracts += counted === undefined ? 0 : num(counted, 'n');
    }
    if (contracts > 0) await trx('contract_counter').where('id', 1).decrement('total', contracts);
    for (const part of chunks(hashes, KEY_CHUNK)) {
      for (const [table, column] of BLOCK_ROWS) await trx(table).whereIn(column, part).delete();
    }
  }

  /** Insert new blocks (none of them stored) with their rows; returns the history rows written. */
  async function insertBlocks(trx: Knex.Transaction, bundles: readonly BlockBundle[], affected: Affected): Promise<Fresh> {
    const fresh: Fresh = { tokens: [], addresses: [], balances: [], instances: [], transferIds: [] };
    if (bundles.length === 0) return fresh;
    countInsertedBlocks(bundles, affected.counters);
    let seq = await highestSeq(trx);

    const blocks: WriteRow[] = [];
    const txs: WriteRow[] = [];
    const kinds: WriteRow[] = [];
    const internals: WriteRow[] = [];
    const logs: WriteRow[] = [];
    const transfers: WriteRow[] = [];
    const transferIds: WriteRow[] = [];
    const stateChanges: WriteRow[] = [];
    const tokens: WriteRow[] = [];
    const addresses: WriteRow[] = [];
    const balances: WriteRow[] = [];
    const coins: WriteRow[] = [];
    const instances: WriteRow[] = [];
    const contracts: WriteRow[] = [];
    const frames: WriteRow[] = [];
    const minedHashes: Hash[] = [];
    const withdrawals: WriteRow[] = [];

    for (const bundle of bundles) {
      const { block } = bundle;
      // the row builders return fresh objects: the extra columns are set on them (no copy)
      const blockAt = blockRow(d, block);
      blockAt.seq = ++seq;
      blocks.push(blockAt);
      for (const t of bundle.transactions) {
        const row = transactionRow(d, t);
        row.consensus = block.consensus;
        txs.push(row);
      }
      if (!block.consensus) continue;

      for (const t of bundle.transactions) {
        minedHashes.push(t.hash);
        for (const k of new Set(t.kinds)) {
          kinds.push({ kind: kindCode(k), block_number: block.number, tx_index: t.index, block_hash: block.hash });
        }
      }
      for (const r of bundle.internalTransactions) internals.push(internalRow(d, r, isListedInternal(r)));
      for (const r of bundle.logs) logs.push(logRow(r));
      for (const r of bundle.tokenTransfers) {
        transfers.push(transferRow(d, r));
        for (const id of new Set(r.tokenIds)) {
          const key = d.key(id);
          transferIds.push({
            token_address: r.tokenAddress,
            token_id: key,
            block_number: r.blockNumber,
            log_index: r.logIndex,
            block_hash: r.blockHash,
            token_type: r.tokenType,
            to_address: r.to,
          });
          affected.transferIds.push([r.tokenAddress, key]);
        }
      }
      for (const r of bundle.stateChanges) stateChanges.push(stateChangeRow(d, r, block.number, block.hash));
      withdrawals.push(...withdrawalRows(d, bundle));
      for (const t of lastPerKey(bundle.tokens, (t) => t.address)) {
        tokens.push({ block_number: block.number, block_hash: block.hash, ...tokenRow(d, t) });
        affected.tokens.push([t.address]);
      }
      for (const a of lastPerKey(bundle.addresses, (a) => a.hash)) {
        addresses.push({
          block_number: a.blockNumber,
          block_hash: block.hash,
          hash: a.hash,
          is_contract: a.isContract,
          name: a.name,
          creation_transaction_hash: a.creationTransactionHash,
          creator_address: a.creatorAddress,
        });
        affected.addresses.push([a.hash]);
      }
      for (const b of lastPerKey(bundle.tokenBalances, (b) => `${b.holder}|${b.tokenAddress}|${String(b.tokenId)}`)) {
        const id = d.idKey(b.tokenId);
        balances.push({
          block_number: b.blockNumber,
          block_hash: block.hash,
          holder: b.holder,
          token_address: b.tokenAddress,
          token_id: id,
          token_type: b.tokenType,
          value: d.key(b.value),
        });
        affected.balances.push([b.holder, b.tokenAddress, id]);
      }
      for (const c of lastPerKey(bundle.coinBalances, (c) => c.address)) {
        coins.push({ block_number: c.blockNumber, block_hash: block.hash, address: c.address, value: d.big(c.value) });
      }
      for (const i of lastPerKey(bundle.tokenInstances, (i) => `${i.tokenAddress}|${i.tokenId}`)) {
        const id = d.key(i.tokenId);
        instances.push({
          block_number: i.blockNumber,
          block_hash: block.hash,
          token_address: i.tokenAddress,
          token_id: id,
          token_type: i.tokenType,
          metadata: i.metadata === null ? null : JSON.stringify(i.metadata),
        });
        affected.instances.push([i.tokenAddress, id]);
      }
      for (const c of bundle.contractCodes ?? []) contracts.push(contractRow(c));
      for (const f of bundle.traceFrames ?? []) frames.push(traceFrameRow(d, f));
    }

    await insertRows(trx, d, 'blocks', blocks);
    await insertRows(trx, d, 'transactions', txs);
    await removeMinedPending(trx, d, minedHashes, affected.counters);
    await insertRows(trx, d, 'transaction_kinds', kinds);
    await insertRows(trx, d, 'internal_transactions', internals);
    await insertRows(trx, d, 'logs', logs);
    await insertRows(trx, d, 'token_transfers', transfers);
    await insertRows(trx, d, 'token_transfer_ids', transferIds, 'ON CONFLICT ("token_address", "token_id", "block_number", "log_index") DO NOTHING');
    await insertRows(trx, d, 'state_changes', stateChanges);
    await insertRows(trx, d, 'token_history', tokens);
    await insertRows(trx, d, 'address_history', addresses);
    await insertRows(trx, d, 'token_balance_history', balances);
    await insertRows(trx, d, 'coin_balances', coins);
    await insertRows(trx, d, 'token_instance_history', instances);
    await insertWithdrawals(trx, d, withdrawals);
    await insertRows(trx, d, 'contracts', contracts);
    if (contracts.length > 0) await trx('contract_counter').where('id', 1).increment('total', contracts.length);
    await insertRows(trx, d, 'trace_frames', frames);
    return { tokens, addresses, balances, instances, transferIds };
  }

  /** (token, holder) pairs among `pairs` whose holder has a positive balance of the token. */
  async function holding(trx: Knex.Transaction, pairs: readonly Key[]): Promise<Set<string>> {
    const out = new Set<string>();
    // (value > 0 tested here: as a SQL term it steers SQLite off the primary key)
    for (const r of await pairRows(trx, pairs)) if (big(r, 'value') > 0n) out.add(`${str(r, 'token_address')}|${str(r, 'holder')}`);
    return out;
  }

  /** The current balance rows (every token id) of (token, holder) pairs: one statement per BULK_ROWS pairs. */
  async function pairRows(trx: Knex.Transaction, pairs: readonly Key[]): Promise<Row[]> {
    const out: Row[] = [];
    for (const part of chunks(pairs, BULK_ROWS)) {
      const keys = keyRows(d, 'current_token_balances', ['token_address', 'holder'], part);
      // CROSS JOIN: SQLite reads the keys first and seeks the primary key (holder, token_address, …) per key
      const rows = await trx.raw(
        `SELECT c."token_address", c."holder", c."token_id", c."token_type", c."value" FROM ${keys.sql} k ` +
          `CROSS JOIN current_token_balances c${d.byPrimaryKey('current_token_balances')} ` +
          `WHERE c."holder" = k."holder" AND c."token_address" = k."token_address"`,
        [...keys.bindings],
      );
      out.push(...asRows(d.rawRows(rows)));
    }
    return out;
  }

  async function refresh(trx: Knex.Transaction, affected: Affected): Promise<void> {
    const counted: string[] = [];
    const balanceKeys = uniqueKeys(affected.balances);
    if (balanceKeys.length > 0) {
      const pairs = uniqueKeys(balanceKeys.filter((k) => k[0] !== ZERO_ADDRESS).map((k): Key => [k[1], k[0]]));
      const before = await holding(trx, pairs);
      await refreshLatest(trx, d, latest.balances, balanceKeys);
      const after = await holding(trx, pairs);
      const delta = new Map<string, number>();
      for (const [token, holder] of pairs) {
        const id = `${String(token)}|${String(holder)}`;
        const change = (after.has(id) ? 1 : 0) - (before.has(id) ? 1 : 0);
        if (change !== 0) delta.set(String(token), (delta.get(String(token)) ?? 0) + change);
      }
      await addHolderCounts(trx, delta);
      counted.push(...delta.keys());
    }
    await refreshLatest(trx, d, latest.tokens, uniqueKeys(affected.tokens));
    await syncTokenSearch(trx, [...counted, ...affected.tokens.map((k) => String(k[0]))]);
    await refreshLatest(trx, d, latest.addresses, uniqueKeys(affected.addresses));
    await refreshLatest(trx, d, latest.instances, uniqueKeys(affected.instances));
    await refreshLatest(trx, d, latest.owners, uniqueKeys(affected.transferIds));
  }

  /**
   * The append-only path: current rows straight from the latest history row per key of the
   * batch (highest block_number, then the later row), holder counts from the stored balances
   * of the touched (token, holder) pairs before and after.
   */
  async function applyFresh(trx: Knex.Transaction, fresh: Fresh): Promise<void> {
    const blockOf = (r: WriteRow) => Number(r.block_number);
    const later = (a: WriteRow, b: WriteRow) => blockOf(a) >= blockOf(b); // rows come in seq order

    const counted: string[] = [];
    const balances = latestRows(fresh.balances, latest.balances.key, later);
    if (balances.length > 0) {
      const pairs = uniqueKeys(balances.filter((r) => r.holder !== ZERO_ADDRESS).map((r): Key => [r.token_address, r.holder]));
      const { values: before, types } = await pairBalances(trx, pairs);
      const after = new Map<string, Map<string, bigint>>();
      for (const [pair, ids] of before) after.set(pair, new Map(ids));
      const kept: WriteRow[] = [];
      const dropped: Key[] = [];
      for (const r of balances) {
        const value = toBig(r.value);
        if (value > 0n || r.token_type === 'ERC-7984') kept.push(currentRow(latest.balances, r));
        else dropped.push(latest.balances.key.map((c) => r[c]));
        if (r.holder === ZERO_ADDRESS) continue;
        const pair = `${String(r.token_address)}|${String(r.holder)}`;
        const ids = after.get(pair) ?? new Map<string, bigint>();
        ids.set(String(d.fromIdKey(r.token_id)), value);
        after.set(pair, ids);
      }
      for (const part of chunks(dropped, BULK_ROWS)) {
        const keys = keyRows(d, 'current_token_balances', latest.balances.key, part);
        const columns = latest.balances.key.map((c) => `"${c}"`).join(', ');
        await trx.raw(`DELETE FROM current_token_balances WHERE (${columns}) IN (SELECT ${columns} FROM ${keys.sql} k)`, [...keys.bindings]);
      }
      // a stored key of the same type takes only its value (SQLite then rewrites only the indexes over value)
      const sameType = (r: WriteRow) => types.get(`${String(r.token_address)}|${String(r.holder)}|${String(r.token_id)}`) === r.token_type;
      await upsertRows(trx, d, 'current_token_balances', latest.balances.key, kept.filter(sameType), ['value']);
      await upsertRows(trx, d, 'current_token_balances', latest.balances.key, kept.filter((r) => !sameType(r)));
      const positive = (ids: ReadonlyMap<string, bigint> | undefined) => ids !== undefined && [...ids.values()].some((v) => v > 0n);
      const delta = new Map<string, number>();
      for (const [token, holder] of pairs) {
        const pair = `${String(token)}|${String(holder)}`;
        const change = (positive(after.get(pair)) ? 1 : 0) - (positive(before.get(pair)) ? 1 : 0);
        if (change !== 0) delta.set(String(token), (delta.get(String(token)) ?? 0) + change);
      }
      await addHolderCounts(trx, delta);
      counted.push(...delta.keys());
    }
    await upsertRows(trx, d, 'tokens', latest.tokens.key, latestRows(fresh.tokens, latest.tokens.key, later).map((r) => currentRow(latest.tokens, r)));
    await syncTokenSearch(trx, [...counted, ...fresh.tokens.map((r) => String(r.address))]);
    await upsertRows(
      trx,
      d,
      'addresses',
      latest.addresses.key,
      latestRows(fresh.addresses, latest.addresses.key, later).map((r) => currentRow(latest.addresses, r)),
    );
    await upsertRows(
      trx,
      d,
      'token_instances',
      latest.instances.key,
      latestRows(fresh.instances, latest.instances.key, later).map((r) => currentRow(latest.instances, r)),
    );
    // owners: the latest transfer by (block_number, log_index); on an exact tie the first row
    // (the insert ignores the repeats)
    const laterTransfer = (a: WriteRow, b: WriteRow) =>
      blockOf(a) > blockOf(b) || (blockOf(a) === blockOf(b) && Number(a.log_index) > Number(b.log_index));
    await upsertRows(
      trx,
      d,
      'nft_owners',
      latest.owners.key,
      latestRows(fresh.transferIds, latest.owners.key, laterTransfer).map((r) => currentRow(latest.owners, r)),
    );
  }

  /**
   * The stored balances of (token, holder) pairs: values by token id, keyed `${token}|${holder}`,
   * and token types keyed `${token}|${holder}|${stored token_id}`.
   */
  async function pairBalances(trx: Knex.Transaction, pairs: readonly Key[]): Promise<{ values: Map<string, Map<string, bigint>>; types: Map<string, string> }> {
    const values = new Map<string, Map<string, bigint>>();
    const types = new Map<string, string>();
    for (const r of await pairRows(trx, pairs)) {
      const pair = `${str(r, 'token_address')}|${str(r, 'holder')}`;
      const ids = values.get(pair) ?? new Map<string, bigint>();
      ids.set(String(d.fromIdKey(r.token_id)), big(r, 'value'));
      values.set(pair, ids);
      types.set(`${pair}|${String(r.token_id)}`, str(r, 'token_type'));
    }
    return { values, types };
  }

  async function addHolderCounts(trx: Knex.Transaction, delta: ReadonlyMap<string, number>): Promise<void> {
    const rows = [...delta].filter(([, n]) => n !== 0).map(([token_address, holders_count]) => ({ token_address, holders_count }));
    await insertRows(
      trx,
      d,
      'token_holder_counts',
      rows,
      'ON CONFLICT ("token_address") DO UPDATE SET "holders_count" = token_holder_counts."holders_count" + excluded."holders_count"',
    );
  }

  /** Rewrite the token_search rows of these tokens from tokens and token_holder_counts. */
  async function syncTokenSearch(trx: Knex.Transaction, addresses: readonly string[]): Promise<void> {
    for (const part of chunks([...new Set(addresses)], BULK_ROWS)) {
      const keys = keyRows(d, 'token_search', ['address'], part.map((a) => [a]));
      const listed = `IN (SELECT "address" FROM ${keys.sql} k)`;
      await trx.raw(`DELETE FROM token_search WHERE "address" ${listed}`, [...keys.bindings]);
      await trx.raw(`INSERT INTO token_search ${TOKEN_SEARCH_COLUMNS} ${tokenSearchSelect(d, `t."address" ${listed}`)}`, [...keys.bindings]);
    }
  }

  return {
    async writeBlocks(bundles: readonly BlockBundle[]): Promise<void> {
      // checked, not copied: rows are built from the caller's records during this call (which
      // must not change them until it settles), and nothing keeps a reference afterwards
      for (const b of bundles) validateBundle(b);
      const prepared = bundles;
      if (prepared.length === 0) return;
      await knex.transaction(async (trx) => {
        const hashes = [...new Set(prepared.map((b) => b.block.hash))];
        const numbers = [...new Set(prepared.map((b) => b.block.number))];
        const existing = new Map<Hash, number>();
        for (const part of chunks(hashes, KEY_CHUNK)) {
          for (const r of asRows(await trx('blocks').select('hash', 'number').whereIn('hash', part))) {
            existing.set(str(r, 'hash') as Hash, num(r, 'number'));
          }
        }
        const consensusAt = new Map<number, Hash>();
        for (const part of chunks(numbers, KEY_CHUNK)) {
          const rows = asRows(await trx('blocks').select('hash', 'number').whereIn('number', part).andWhere('consensus', true));
          for (const r of rows) consensusAt.set(num(r, 'number'), str(r, 'hash') as Hash);
        }
        // a hash keeps its number across the store and the batch
        const numberOf = new Map<Hash, number>();
        for (const { block } of prepared) {
          const known = existing.get(block.hash) ?? numberOf.get(block.hash);
          if (known !== undefined && known !== block.number) {
            throw new InvalidWriteError(`block ${block.hash} is stored at ${known}, written at ${block.number}`);
          }
          numberOf.set(block.hash, block.number);
        }
        // plan: which stored blocks go, which new ones come, in order
        const removed = new Set<Hash>();
        const planned = new Map<Hash, BlockBundle>();
        for (const bundle of prepared) {
          const { hash, number, consensus } = bundle.block;
          if ((existing.has(hash) && !removed.has(hash)) || planned.has(hash)) continue;
          if (consensus) {
            const current = consensusAt.get(number);
            if (current !== undefined) {
              if (planned.has(current)) planned.delete(current);
              else removed.add(current);
            }
            consensusAt.set(number, hash);
          }
          planned.set(hash, bundle);
        }
        if (removed.size === 0 && planned.size === 0) return; // all stored already: nothing changes
        // append-only (nothing removed, every new block above every stored one): each new
        // history row is later than every stored row of its key, so current values follow
        // from the batch alone
        let appending = removed.size === 0;
        if (appending) {
          const top = asRows(await trx('blocks').max({ m: 'number' }))[0];
          const stored = top === undefined || top.m === null ? null : num(top, 'm');
          appending = stored === null || [...planned.values()].every((b) => b.block.number > stored);
        }
        const affected = new Affected();
        const stats = await beginStatsWrite(trx, d, [...removed], [...planned.values()]);
        await removeBlocks(trx, [...removed], affected);
        const fresh = await insertBlocks(trx, [...planned.values()], affected);
        await stats.finish();
        if (appending && mode.recomputeAlways !== true) await applyFresh(trx, fresh);
        else await refresh(trx, affected);
        await applySupplyDelta(trx, d, await applyCounterDeltas(trx, d, affected.counters, appending && mode.recomputeAlways !== true));
        await bumpDataVersion(trx);
      });
    },

    async writePendingTransactions(transactions: readonly TransactionRecord[]): Promise<void> {
      validatePending(transactions);
      const prepared = transactions;
      const firsts = new Map<Hash, TransactionRecord>();
      for (const t of prepared) if (!firsts.has(t.hash)) firsts.set(t.hash, t);
      if (firsts.size === 0) return;
      await knex.transaction(async (trx) => {
        const skip = new Set<string>();
        for (const part of chunks([...firsts.keys()], KEY_CHUNK)) {
          for (const r of asRows(await trx('pending_transactions').select('hash').whereIn('hash', part))) skip.add(str(r, 'hash'));
          const mined = asRows(await trx('transactions').select('hash').whereIn('hash', part).andWhere('consensus', true));
          for (const r of mined) skip.add(str(r, 'hash'));
        }
        const rows = [...firsts.values()].filter((t) => !skip.has(t.hash)).map((t) => transactionRow(d, t));
        if (rows.length === 0) return;
        await insertRows(trx, d, 'pending_transactions', rows);
        const counters = new CounterDeltas();
        countPending([...firsts.values()].filter((t) => !skip.has(t.hash)), counters);
        await applySupplyDelta(trx, d, await applyCounterDeltas(trx, d, counters, true));
        await bumpDataVersion(trx);
      });
    },

    async rollbackAbove(height: number): Promise<void> {
      if (typeof height !== 'number' || Number.isNaN(height)) throw new TypeError(`rollbackAbove: bad height ${String(height)}`);
      await knex.transaction(async (trx) => {
        const hashes = asRows(await trx('blocks').select('hash').where('number', '>', height)).map((r) => str(r, 'hash') as Hash);
        if (hashes.length === 0) return;
        const affected = new Affected();
        const stats = await beginStatsWrite(trx, d, hashes, []);
        await removeBlocks(trx, hashes, affected);
        await stats.finish();
        await refresh(trx, affected);
        await applySupplyDelta(trx, d, await applyCounterDeltas(trx, d, affected.counters, false));
        await bumpDataVersion(trx);
      });
    },

    async beginBulk(): Promise<void> {
      await beginBulk(knex, d);
    },

    inBulk: () => inBulk(knex),

    async settle(): Promise<void> {
      await restoreDeferred(knex, d);
      await d.settle(knex);
    },

    async getIndexedHead() {
      const top = asRows(await knex('blocks').max({ m: 'number' }))[0];
      if (top === undefined || top.m === null) return null;
      const row = asRows(
        await knex('blocks')
          .select('number', 'hash')
          .where('number', num(top, 'm'))
          .orderBy([
            { column: 'consensus', order: 'desc' },
            { column: 'seq', order: 'desc' },
          ])
          .limit(1),
      )[0];
      return row === undefined ? null : { number: num(row, 'number'), hash: str(row, 'hash') as Hash };
    },
  };
}

/** Readers compare this counter to tell whether cached answers are stale (DataSource.getDataVersion). */
async function bumpDataVersion(trx: Knex.Transaction): Promise<void> {
  await trx('data_version').where('id', 1).increment('version', 1);
}
