/**
 * getAddressViews: a page's addresses, driven by the keys (a VALUES list), each with its addresses
 * row if any, the type of the token at it and whether it has proxy changes: one statement per
 * chunk, three index probes per key (getAddresses made one; the page then also ran getTokens and
 * getProxyHistory). Keys none of the three tables knows are left out in the statement.
 */
import type { Address, AddressView } from '../../../lib/domain/records.ts';
import { toAddressView } from '../rows.ts';
import { KEY_CHUNK, chunks, keyListStatement } from '../sql.ts';
import type { SqlContext } from './context.ts';
import { inOrder } from './seek.ts';

const byKeys = keyListStatement(
  (rows) =>
    `with k (k_hash) as (values ${rows}) ` +
    'select * from (select k.k_hash, a.*, t.type as token_type, exists (select 1 from proxy_implementations as p where p.proxy = k.k_hash) as proxied ' +
    'from k left join addresses as a on a.hash = k.k_hash left join tokens as t on t.address = k.k_hash) as v ' +
    // only the keys something is known of (most of a page's senders are accounts with none)
    'where v.hash is not null or v.token_type is not null or v.proxied',
  'rows',
);

export async function getAddressViews(c: SqlContext, hashes: readonly Address[]): Promise<readonly AddressView[]> {
  const found = new Map<Address, AddressView>();
  const parts = await Promise.all(chunks([...new Set(hashes)], KEY_CHUNK).map((part) => c.raw(byKeys(part.length), part)));
  for (const rows of parts) {
    for (const r of rows) {
      const view = toAddressView(r);
      found.set(view.hash, view);
    }
  }
  return inOrder(hashes, found);
}
