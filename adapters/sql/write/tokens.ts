/**
 * Token history (the last record per token of each consensus block), the current tokens (the
 * latest history row), and token_search (migration 010: what the /tokens list orders and
 * matches on, one row per token), rewritten from tokens and token_holder_counts for every
 * token a write touched: holders_rank (= −holders_count, so the list's order is ascending in
 * every column), name_null (1 for a NULL name: those sort last), name_key (the name, '' for
 * NULL), the ASCII-lower-cased name and symbol (prefix ranges).
 */
import type { Knex } from 'knex';
import type { BlockBundle } from '../../../lib/domain/records.ts';
import type { Dialect } from '../dialect.ts';
import type { WriteRow } from '../rows.ts';
import { tokenRow } from '../rows.ts';
import { BULK_ROWS, chunks, insertRows, keyRows, lastPerKey, refreshLatest, uniqueKeys, upsertRows } from '../sql.ts';
import type { Key } from './batch.ts';
import { freshCurrentRows, latestSpecs } from './latest.ts';

/** Insert the token history rows; returns them (every key in `affected`). */
export async function insertTokenHistory(trx: Knex.Transaction, d: Dialect, consensus: readonly BlockBundle[], affected: Key[]): Promise<WriteRow[]> {
  const rows: WriteRow[] = [];
  for (const { block, tokens } of consensus) {
    for (const t of lastPerKey(tokens, (t) => t.address)) {
      rows.push({ block_number: block.number, block_hash: block.hash, ...tokenRow(d, t) });
      affected.push([t.address]);
    }
  }
  await insertRows(trx, d, 'token_history', rows);
  return rows;
}

/** Recompute the current tokens of `keys` from history. */
export async function refreshTokens(trx: Knex.Transaction, d: Dialect, keys: readonly Key[]): Promise<void> {
  await refreshLatest(trx, d, latestSpecs(d).tokens, uniqueKeys(keys));
}

/** The append-only path: the current tokens from the batch's latest history row per token. */
export async function applyFreshTokens(trx: Knex.Transaction, d: Dialect, rows: readonly WriteRow[]): Promise<void> {
  const spec = latestSpecs(d).tokens;
  await upsertRows(trx, d, 'tokens', spec.key, freshCurrentRows(spec, rows));
}

/** The token_search rows of the tokens whose address satisfies `where` (SQL over `t`). */
function tokenSearchSelect(d: Dialect, where: string): string {
  return `SELECT t."address", t."type", -COALESCE(h."holders_count", 0), CASE WHEN t."name" IS NULL THEN 1 ELSE 0 END,
    COALESCE(t."name", ''), ${d.asciiLower('t."name"')}, ${d.asciiLower('t."symbol"')}
    FROM tokens t LEFT JOIN token_holder_counts h ON h."token_address" = t."address" WHERE ${where}`;
}
/** The columns tokenSearchSelect gives, in its order. */
const TOKEN_SEARCH_COLUMNS = '("address", "type", "holders_rank", "name_null", "name_key", "name_lower", "symbol_lower")';

/** Rewrite the token_search rows of these tokens from tokens and token_holder_counts. */
export async function syncTokenSearch(trx: Knex.Transaction, d: Dialect, addresses: readonly string[]): Promise<void> {
  for (const part of chunks([...new Set(addresses)], BULK_ROWS)) {
    const keys = keyRows(d, 'token_search', ['address'], part.map((a) => [a]));
    const listed = `IN (SELECT "address" FROM ${keys.sql} k)`;
    await trx.raw(`DELETE FROM token_search WHERE "address" ${listed}`, [...keys.bindings]);
    await trx.raw(`INSERT INTO token_search ${TOKEN_SEARCH_COLUMNS} ${tokenSearchSelect(d, `t."address" ${listed}`)}`, [...keys.bindings]);
  }
}
