/**
 * The parties of user operations with their kept counts (migration 027): a role's list in
 * (count DESC, address DESC) — total_bundles for bundlers, total_ops otherwise — a seek on the
 * matching index; and a batch lookup by address.
 */
import type { Address } from '../../../lib/domain/records.ts';
import type { Page, UserOperationParty, UserOperationPartyCursor, UserOperationRole } from '../../../lib/ports.ts';
import type { Row } from '../rows.ts';
import { asRows, num, str, address } from '../rows.ts';
import { KEY_CHUNK, chunks } from '../sql.ts';
import type { SqlContext } from './context.ts';
import { orderBy, pageSize, past } from './seek.ts';

const toParty = (r: Row): UserOperationParty => ({
  role: str(r, 'role') as UserOperationRole,
  address: address(r, 'address'),
  totalOps: num(r, 'total_ops'),
  totalBundles: num(r, 'total_bundles'),
});

export async function listUserOperationParties(c: SqlContext, role: UserOperationRole, page: Page<UserOperationPartyCursor>): Promise<readonly UserOperationParty[]> {
  const n = pageSize(page.limit);
  if (n === 0) return [];
  const count = role === 'bundler' ? 'total_bundles' : 'total_ops';
  let q = c.knex('user_operation_parties').select('*').where('role', role);
  if (page.after !== null) q = past(q, [count, 'address'], [page.after.count, page.after.address], page.order);
  const rows = asRows(
    await q
      .orderBy(
        orderBy(
          [
            [count, 'desc'],
            ['address', 'desc'],
          ],
          page.order,
        ),
      )
      .limit(n),
  );
  return rows.map(toParty);
}

export async function getUserOperationParties(c: SqlContext, role: UserOperationRole, addresses: readonly Address[]): Promise<readonly UserOperationParty[]> {
  const out: UserOperationParty[] = [];
  for (const part of chunks([...new Set(addresses)], KEY_CHUNK)) {
    out.push(...asRows(await c.knex('user_operation_parties').select('*').where('role', role).whereIn('address', part)).map(toParty));
  }
  return out;
}
