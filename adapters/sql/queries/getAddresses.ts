/**
 * getAddresses: a batch of addresses, chunked, in parallel, each with the type of the token at it
 * and whether it is a proxy the indexer saw (two index probes per row in the same statement: a page
 * needs no further query for addresses that are neither).
 */
import type { Address, AddressView } from '../../../lib/domain/records.ts';
import { hex, toAddressView } from '../rows.ts';
import { KEY_CHUNK, chunks, keyListStatement } from '../sql.ts';
import type { SqlContext } from './context.ts';
import { inOrder } from './seek.ts';

const byHashes = keyListStatement(
  (keys) =>
    'select a.*, t.type as token_type, exists (select 1 from proxy_implementations as p where p.proxy = a.hash) as proxied ' +
    `from addresses as a left join tokens as t on t.address = a.hash where a.hash in ${keys}`,
);

export async function getAddresses(c: SqlContext, hashes: readonly Address[]): Promise<readonly AddressView[]> {
  const found = new Map<Address, AddressView>();
  // chunks in parallel: a SQLite file has a pool of readers, Postgres a pool of connections
  const parts = await Promise.all(chunks([...new Set(hashes)], KEY_CHUNK).map((part) => c.raw(byHashes(part.length), part)));
  for (const rows of parts) for (const r of rows) found.set(hex(r, 'hash'), toAddressView(r));
  return inOrder(hashes, found);
}
