/**
 * The accounts of user operations (migrations 027, 028) in address order: a page of senders with
 * their kept counts — a seek on user_operation_parties' primary key (role 'sender', address), or,
 * with a factory, on user_operations_factory_accounts (factory, sender) joined to those counts in
 * the same statement — then each one's creation, its oldest operation carrying a factory, one
 * LIMIT 1 probe per account on user_operations_creations, all in one statement (seekPages).
 */
import type { Address, Hash } from '../../../lib/domain/records.ts';
import type { Page, UserOperationAccount, UserOperationAccountCursor, UserOperationAccountFilter, UserOperationCreation } from '../../../lib/ports.ts';
import { asRows, num, address, hash } from '../rows.ts';
import type { SqlContext } from './context.ts';
import { pageSize, seekPages } from './seek.ts';

async function creationsOf(c: SqlContext, senders: readonly Address[]): Promise<Map<Address, UserOperationCreation>> {
  const probes = senders.map((sender) =>
    c
      .knex('user_operations')
      .select('sender', 'factory', 'transaction_hash', 'hash', 'timestamp')
      .where('sender', sender)
      .whereNotNull('factory')
      .orderBy([
        { column: 'block_number', order: 'asc' },
        { column: 'hash', order: 'asc' },
      ])
      .limit(1),
  );
  const out = new Map<Address, UserOperationCreation>();
  for (const [r] of await seekPages(c.knex, probes)) {
    if (r === undefined) continue;
    out.set(address(r, 'sender'), {
      factory: address(r, 'factory'),
      transactionHash: hash(r, 'transaction_hash'),
      hash: hash(r, 'hash'),
      timestamp: num(r, 'timestamp'),
    });
  }
  return out;
}

export async function listUserOperationAccounts(
  c: SqlContext,
  filter: UserOperationAccountFilter,
  page: Page<UserOperationAccountCursor>,
): Promise<readonly UserOperationAccount[]> {
  const n = pageSize(page.limit);
  if (n === 0) return [];
  // the list's stated order ('desc') is address ASC
  const dir = page.order === 'desc' ? 'asc' : 'desc';
  const past = dir === 'asc' ? '>' : '<';
  let q = c.knex('user_operation_parties').select('address', 'total_ops').where('role', 'sender');
  if (filter.factory === undefined) {
    if (page.after !== null) q = q.andWhere('address', past, page.after.address);
  } else {
    // the page's senders from the factory's index, then one key probe each (no range on the parties)
    let senders = c.knex('user_operations').distinct('sender').where('factory', filter.factory);
    if (page.after !== null) senders = senders.andWhere('sender', past, page.after.address);
    q = q.whereIn('address', senders.orderBy('sender', dir).limit(n));
  }
  const accounts = asRows(await q.orderBy('address', dir).limit(n)).map((r) => ({ address: address(r, 'address'), totalOps: num(r, 'total_ops') }));
  const creations = await creationsOf(c, accounts.map((a) => a.address));
  return accounts.map((a) => ({ ...a, creation: creations.get(a.address) ?? null }));
}
