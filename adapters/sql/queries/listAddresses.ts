/**
 * listAddresses: one seek on addresses_name (migration 010) — the range of ASCII-lower-cased
 * names starting with the prefix, in (lower-cased name, hash) order from the cursor; with
 * isContract, on addresses_contract_name (migration 015), the same range within that flag.
 */
import { asciiLower, prefixBound } from '../../../lib/domain/text.ts';
import type { AddressRecord } from '../../../lib/domain/records.ts';
import type { AddressListCursor, AddressListFilter, Page } from '../../../lib/ports.ts';
import { asRows, toAddress } from '../rows.ts';
import type { SqlContext } from './context.ts';
import { pageSize } from './seek.ts';

export async function listAddresses(c: SqlContext, filter: AddressListFilter, page: Page<AddressListCursor>): Promise<readonly AddressRecord[]> {
  const n = pageSize(page.limit);
  if (n === 0) return [];
  const name = c.d.asciiLower('"name"');
  const prefix = asciiLower(filter.namePrefix);
  const bound = prefixBound(prefix);
  let q = c.knex('addresses').whereRaw(`${name} >= ?`, [prefix]);
  if (bound !== null) q = q.andWhereRaw(`${name} < ?`, [bound]);
  if (filter.isContract !== undefined) q = q.andWhere('is_contract', filter.isContract);
  const after = page.after;
  if (after !== null) q = q.andWhereRaw(`(${name}, "hash") ${page.order === 'desc' ? '>' : '<'} (?, ?)`, [asciiLower(after.name), after.hash]);
  const dir = page.order === 'desc' ? 'asc' : 'desc';
  return asRows(await q.orderByRaw(`${name} ${dir}, "hash" ${dir}`).limit(n)).map(toAddress);
}
