/** getAddresses: a batch of address records, chunked, in parallel. */
import type { Address, AddressRecord } from '../../../lib/domain/records.ts';
import { toAddress, address } from '../rows.ts';
import { KEY_CHUNK, chunks, keyListStatement } from '../sql.ts';
import type { SqlContext } from './context.ts';
import { inOrder } from './seek.ts';

const byHashes = keyListStatement((keys) => `select * from addresses where hash in ${keys}`);

export async function getAddresses(c: SqlContext, hashes: readonly Address[]): Promise<readonly AddressRecord[]> {
  const found = new Map<Address, AddressRecord>();
  // chunks in parallel: a SQLite file has a pool of readers, Postgres a pool of connections
  const parts = await Promise.all(chunks([...new Set(hashes)], KEY_CHUNK).map((part) => c.raw(byHashes(part.length), part)));
  for (const rows of parts) for (const r of rows) found.set(address(r, 'hash'), toAddress(r));
  return inOrder(hashes, found);
}
