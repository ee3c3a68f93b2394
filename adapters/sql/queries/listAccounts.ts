/**
 * listAccounts: address_counters rows with a positive balance (`listed`), in one of
 * Blockscout's four orders (lib/ports.ts AccountCursor), each served by its own index of
 * migration 008. The address ascends in every order, so the order is not one direction and a
 * row-value seek cannot express "past the cursor": it is split into disjoint seeks instead —
 * equal on the first i columns, strictly past the cursor on column i — each an index range
 * scan, taken deepest first (that is the list's order) until the page is full.
 */
import type { AccountRecord, Address } from '../../../lib/domain/records.ts';
import type { AccountCursor, AccountFilter, Page } from '../../../lib/ports.ts';
import type { Binding } from '../dialect.ts';
import type { Row } from '../rows.ts';
import { asRows, big, str } from '../rows.ts';
import type { SqlContext } from './context.ts';
import { pageSize } from './seek.ts';

type Column = readonly [name: 'balance' | 'transactions_count' | 'address', dir: 'asc' | 'desc'];

function columnsOf(filter: AccountFilter, order: 'desc' | 'asc'): readonly Column[] {
  if (filter.sort === 'balance') return [['balance', order], ['address', 'asc']];
  return [['transactions_count', order], ['balance', 'desc'], ['address', 'asc']];
}

const safe = (v: bigint): number => Number(v > BigInt(Number.MAX_SAFE_INTEGER) ? BigInt(Number.MAX_SAFE_INTEGER) : v < BigInt(Number.MIN_SAFE_INTEGER) ? BigInt(Number.MIN_SAFE_INTEGER) : v);

const toAccount = (r: Row): AccountRecord => ({
  address: str(r, 'address') as Address,
  balance: big(r, 'balance'),
  transactionsCount: big(r, 'transactions_count'),
});

export async function listAccounts(c: SqlContext, filter: AccountFilter, page: Page<AccountCursor>): Promise<readonly AccountRecord[]> {
  const { knex, d } = c;
  const n = pageSize(page.limit);
  if (n === 0) return [];
  const columns = columnsOf(filter, page.order);
  const ordered = () =>
    knex('address_counters')
      .select('address', 'balance', 'transactions_count')
      .where('listed', true)
      .orderBy(columns.map(([column, order]) => ({ column, order })));
  const at = page.after;
  if (at === null) return asRows(await ordered().limit(n)).map(toAccount);
  const value = (name: Column[0]): Binding =>
    name === 'balance' ? d.probe(at.balance) : name === 'transactions_count' ? safe(at.transactionsCount) : at.address;
  const out: AccountRecord[] = [];
  for (let i = columns.length - 1; i >= 0 && out.length < n; i--) {
    let q = ordered();
    for (const [name] of columns.slice(0, i)) q = q.andWhere(name, value(name));
    const [name, dir] = columns[i];
    q = q.andWhere(name, dir === 'desc' ? '<' : '>', value(name));
    out.push(...asRows(await q.limit(n - out.length)).map(toAccount));
  }
  return out;
}
