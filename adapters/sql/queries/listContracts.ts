/**
 * listContracts: every creation, newest first — a seek on contracts_list (block_number DESC,
 * address DESC). An address filter is a row condition (a substring of the address text).
 */
import type { ContractCodeRecord } from '../../../lib/domain/records.ts';
import type { ContractCursor, ContractFilter, Page } from '../../../lib/ports.ts';
import { asRows, toContract } from '../rows.ts';
import type { SqlContext } from './context.ts';
import { orderBy, pageSize, past } from './seek.ts';

const HEX_TEXT = /^[0-9a-fx]*$/;

export async function listContracts(c: SqlContext, filter: ContractFilter, page: Page<ContractCursor>): Promise<readonly ContractCodeRecord[]> {
  const n = pageSize(page.limit);
  if (n === 0) return [];
  let q = c.knex('contracts');
  const needle = filter.addressContains?.toLowerCase();
  if (needle !== undefined && needle !== '') {
    if (!HEX_TEXT.test(needle)) return []; // no address text holds anything else
    q = q.where('address', 'like', `%${needle}%`);
  }
  const at = page.after;
  if (at !== null) q = past(q, ['block_number', 'address'], [at.blockNumber, at.address], page.order);
  const rows = await q.orderBy(orderBy([['block_number', 'desc'], ['address', 'desc']], page.order)).limit(n);
  return asRows(rows).map(toContract);
}
