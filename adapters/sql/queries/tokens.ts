/** Tokens by address with their holder counts, chunked, in parallel (getToken, getTokens). */
import type { Address, TokenRecord } from '../../../lib/domain/records.ts';
import { asRows, hex, toToken } from '../rows.ts';
import { KEY_CHUNK, chunks } from '../sql.ts';
import type { SqlContext } from './context.ts';

export async function tokensByAddress(c: SqlContext, addresses: readonly Address[]): Promise<Map<Address, TokenRecord>> {
  const found = new Map<Address, TokenRecord>();
  const parts = await Promise.all(
  chunks([...new Set(addresses)], KEY_CHUNK).map(async (part) =>
    asRows(
      await c.knex('tokens as t')
        .leftJoin('token_holder_counts as h', 'h.token_address', 't.address')
        .select('t.*', 'h.holders_count')
        .whereIn('t.address', part),
    ),
  ),
  );
  for (const rows of parts) for (const r of rows) found.set(hex(r, 'address'), toToken(r));
  return found;
}
