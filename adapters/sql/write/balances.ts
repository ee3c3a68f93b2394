/**
 * Token balance history (the last record per (holder, token, id) of each consensus block) and
 * the current balances that lists show (value > 0, or any ERC-7984), with the holder counts
 * they move (./holders.ts). The zero address holds no count.
 */
import type { Knex } from 'knex';
import type { BlockBundle } from '../../../lib/domain/records.ts';
import type { Dialect } from '../dialect.ts';
import { toBig } from '../dialect.ts';
import type { WriteRow } from '../rows.ts';
import { BULK_ROWS, chunks, insertRows, keyRows, lastPerKey, refreshLatest, uniqueKeys, upsertRows } from '../sql.ts';
import type { Key } from './batch.ts';
import { addHolderCounts, holderCountDelta, holding, pairBalances } from './holders.ts';
import { currentRow, laterInBlocks, latestRows, latestSpecs } from './latest.ts';
import { ZERO_ADDRESS } from '../../../lib/domain/hex.ts';

/** Insert the balance history rows; returns them (every key in `affected`). */
export async function insertBalanceHistory(trx: Knex.Transaction, d: Dialect, consensus: readonly BlockBundle[], affected: Key[]): Promise<WriteRow[]> {
  const rows: WriteRow[] = [];
  for (const { block, tokenBalances } of consensus) {
    for (const b of lastPerKey(tokenBalances, (b) => `${b.holder}|${b.tokenAddress}|${String(b.tokenId)}`)) {
      const id = d.idKey(b.tokenId);
      rows.push({
        block_number: b.blockNumber,
        block_hash: block.hash,
        holder: b.holder,
        token_address: b.tokenAddress,
        token_id: id,
        token_type: b.tokenType,
        value: d.key(b.value),
      });
      affected.push([b.holder, b.tokenAddress, id]);
    }
  }
  await insertRows(trx, d, 'token_balance_history', rows);
  return rows;
}

/** Recompute the current balances of (holder, token, id) keys from history; returns the tokens whose holder count moved. */
export async function refreshBalances(trx: Knex.Transaction, d: Dialect, keys: readonly Key[]): Promise<string[]> {
  const balanceKeys = uniqueKeys(keys);
  if (balanceKeys.length === 0) return [];
  const pairs = uniqueKeys(balanceKeys.filter((k) => k[0] !== ZERO_ADDRESS).map((k): Key => [k[1], k[0]]));
  const before = await holding(trx, d, pairs);
  await refreshLatest(trx, d, latestSpecs(d).balances, balanceKeys);
  const after = await holding(trx, d, pairs);
  const delta = holderCountDelta(
    pairs,
    (pair) => before.has(pair),
    (pair) => after.has(pair),
  );
  await addHolderCounts(trx, d, delta);
  return [...delta.keys()];
}

/**
 * The append-only path: the current balances from the batch's latest history row per key,
 * holder counts from the stored balances of the touched (token, holder) pairs before and after;
 * returns the tokens whose holder count moved.
 */
export async function applyFreshBalances(trx: Knex.Transaction, d: Dialect, rows: readonly WriteRow[]): Promise<string[]> {
  const spec = latestSpecs(d).balances;
  const balances = latestRows(rows, spec.key, laterInBlocks);
  if (balances.length === 0) return [];
  const pairs = uniqueKeys(balances.filter((r) => r.holder !== ZERO_ADDRESS).map((r): Key => [r.token_address, r.holder]));
  const { values: before, types } = await pairBalances(trx, d, pairs);
  const after = new Map<string, Map<string, bigint>>();
  for (const [pair, ids] of before) after.set(pair, new Map(ids));
  const kept: WriteRow[] = [];
  const dropped: Key[] = [];
  for (const r of balances) {
    const value = toBig(r.value);
    if (value > 0n || r.token_type === 'ERC-7984') kept.push(currentRow(spec, r));
    else dropped.push(spec.key.map((c) => r[c]));
    if (r.holder === ZERO_ADDRESS) continue;
    const pair = `${String(r.token_address)}|${String(r.holder)}`;
    const ids = after.get(pair) ?? new Map<string, bigint>();
    ids.set(String(d.fromIdKey(r.token_id)), value);
    after.set(pair, ids);
  }
  for (const part of chunks(dropped, BULK_ROWS)) {
    const keys = keyRows(d, 'current_token_balances', spec.key, part);
    const columns = spec.key.map((c) => `"${c}"`).join(', ');
    await trx.raw(`DELETE FROM current_token_balances WHERE (${columns}) IN (SELECT ${columns} FROM ${keys.sql} k)`, [...keys.bindings]);
  }
  // a stored key of the same type takes only its value (SQLite then rewrites only the indexes over value)
  const sameType = (r: WriteRow) => types.get(`${String(r.token_address)}|${String(r.holder)}|${String(r.token_id)}`) === r.token_type;
  await upsertRows(trx, d, 'current_token_balances', spec.key, kept.filter(sameType), ['value']);
  await upsertRows(trx, d, 'current_token_balances', spec.key, kept.filter((r) => !sameType(r)));
  const positive = (ids: ReadonlyMap<string, bigint> | undefined) => ids !== undefined && [...ids.values()].some((v) => v > 0n);
  const delta = holderCountDelta(
    pairs,
    (pair) => positive(before.get(pair)),
    (pair) => positive(after.get(pair)),
  );
  await addHolderCounts(trx, d, delta);
  return [...delta.keys()];
}
