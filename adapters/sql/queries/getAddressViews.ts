/**
 * getAddressViews: a page's addresses, each with its addresses row if any, the type of the token
 * at it and whether it has proxy changes, from address_views (migration 024, kept by the writer:
 * write/views.ts): one index probe per key, as getAddresses makes, where joining the three
 * tables took three (RESULTS entry 32). Keys it holds no row of are left out. The keys come in
 * one binding (Dialect.keyTable), so the text is the same for any number of keys and the store
 * prepares it once (preparedReads.ts, namedStatements.ts).
 */
import type { Address, AddressView } from '../../../lib/domain/records.ts';
import type { Dialect } from '../dialect.ts';
import { toAddressView } from '../rows.ts';
import type { SqlContext } from './context.ts';
import { inOrder } from './seek.ts';

const byKeys = (d: Dialect): string => `with k (k_hash) as (${d.keyTable}) select v.* from k join address_views as v on v.hash = k.k_hash`;

export async function getAddressViews(c: SqlContext, hashes: readonly Address[]): Promise<readonly AddressView[]> {
  const found = new Map<Address, AddressView>();
  const keys = [...new Set(hashes)];
  if (keys.length === 0) return [];
  for (const r of await c.raw(byKeys(c.d), [c.d.keyTableBinding(keys)])) {
    const view = toAddressView(r);
    found.set(view.hash, view);
  }
  return inOrder(hashes, found);
}
