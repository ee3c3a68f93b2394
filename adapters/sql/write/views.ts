/**
 * address_views (migration 024): what a page shows of an address — its addresses row, the type
 * of the token at it, whether it has proxy changes — in one row, rewritten from addresses,
 * tokens and proxy_implementations for every address a write touched in any of the three
 * (after the current values are recomputed or applied), so that a rollback or a replacement
 * restores it exactly and getAddressViews reads one row per key.
 */
import type { Knex } from 'knex';
import type { Dialect } from '../dialect.ts';
import type { Affected } from './batch.ts';

/** The view rows of the keys (`k`), from the three tables; only keys something is known of. */
const VIEW_ROWS =
  'p (proxy) AS (SELECT DISTINCT "proxy" FROM proxy_implementations WHERE "proxy" IN (SELECT k_hash FROM k)) ' +
  'INSERT INTO address_views ("hash", "is_contract", "name", "creation_transaction_hash", "creator_address", "token_type", "proxied") ' +
  'SELECT k.k_hash, a."is_contract", a."name", a."creation_transaction_hash", a."creator_address", t."type", p.proxy IS NOT NULL ' +
  'FROM k LEFT JOIN addresses a ON a."hash" = k.k_hash LEFT JOIN tokens t ON t."address" = k.k_hash LEFT JOIN p ON p.proxy = k.k_hash ' +
  'WHERE a."hash" IS NOT NULL OR t."type" IS NOT NULL OR p.proxy IS NOT NULL';

/** Rewrite the view rows of every address the write touched. */
export async function syncAddressViews(trx: Knex.Transaction, d: Dialect, affected: Affected): Promise<void> {
  const keys = new Set<string>();
  for (const list of [affected.addresses, affected.tokens, affected.proxies]) for (const k of list) keys.add(String(k[0]));
  if (keys.size === 0) return;
  const binding = d.keyTableBinding([...keys]);
  const k = `WITH k (k_hash) AS (${d.keyTable}) `;
  await trx.raw(`${k}DELETE FROM address_views WHERE "hash" IN (SELECT k_hash FROM k)`, [binding]);
  await trx.raw(`${k}, ${VIEW_ROWS}`, [binding]);
}
