/** Tokens by address with their holder counts, chunked, in parallel (getToken, getTokens). */
import type { Address, TokenRecord } from '../../../lib/domain/records.ts';
import { toToken, address } from '../rows.ts';
import { KEY_CHUNK, chunks, keyListStatement } from '../sql.ts';
import type { SqlContext } from './context.ts';

const byAddresses = keyListStatement(
  (keys) => `select t.*, h.holders_count from tokens as t left join token_holder_counts as h on h.token_address = t.address where t.address in ${keys}`,
);

export async function tokensByAddress(c: SqlContext, addresses: readonly Address[]): Promise<Map<Address, TokenRecord>> {
  const found = new Map<Address, TokenRecord>();
  const parts = await Promise.all(chunks([...new Set(addresses)], KEY_CHUNK).map((part) => c.raw(byAddresses(part.length), part)));
  for (const rows of parts) for (const r of rows) found.set(address(r, 'address'), toToken(r));
  return found;
}
