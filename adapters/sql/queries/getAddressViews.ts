/**
 * getAddressViews: a page's addresses, driven by the keys (one binding: Dialect.keyTable), each
 * with its addresses row if any, the type of the token at it and whether it has proxy changes:
 * one statement, three index probes per key (getAddresses makes one; the page would otherwise
 * also run getTokens and getProxyHistory). Keys none of the three tables knows are left out in
 * the statement. Its text is the same for any number of keys, so the store prepares it once
 * (preparedReads.ts, namedStatements.ts) where a list of placeholders would be a text per length.
 */
import type { Address, AddressView } from '../../../lib/domain/records.ts';
import type { Dialect } from '../dialect.ts';
import { toAddressView } from '../rows.ts';
import type { SqlContext } from './context.ts';
import { inOrder } from './seek.ts';

const byKeys = (d: Dialect): string =>
  `with k (k_hash) as (${d.keyTable}), ` +
  // the page's proxies, found once (an EXISTS per key ran once per key and again in the filter)
  'p (proxy) as (select distinct proxy from proxy_implementations where proxy in (select k_hash from k)) ' +
  'select k.k_hash, a.*, t.type as token_type, p.proxy is not null as proxied ' +
  'from k left join addresses as a on a.hash = k.k_hash left join tokens as t on t.address = k.k_hash left join p on p.proxy = k.k_hash ' +
  // only the keys something is known of (most of a page's senders are accounts with none)
  'where a.hash is not null or t.type is not null or p.proxy is not null';

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
