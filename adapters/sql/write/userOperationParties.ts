/**
 * The parties' kept counts (migration 027): the deltas of operations written or removed,
 * applied in the writing transaction; a party whose count falls to 0 leaves the table.
 */
import type { Knex } from 'knex';
import type { Hash } from '../../../lib/domain/records.ts';
import { USER_OPERATION_ROLES } from '../../../lib/ports/userOperationRoles.ts';
import { asRows, num, str, strOrNull } from '../rows.ts';
import { KEY_CHUNK, chunks } from '../sql.ts';

/** what the counts need of an operation */
export interface PartyFields {
  readonly sender: string;
  readonly bundler: string;
  readonly paymaster: string | null;
  readonly factory: string | null;
  readonly transactionHash: string;
  readonly bundleIndex: number;
}

/** Move the counts by these operations, added (sign 1) or removed (sign -1). */
export async function countParties(trx: Knex.Transaction, ops: readonly PartyFields[], sign: 1 | -1): Promise<void> {
  if (ops.length === 0) return;
  const deltas = new Map<string, { role: string; address: string; ops: number; bundles: Set<string> }>();
  for (const o of ops) {
    for (const role of USER_OPERATION_ROLES) {
      const address = o[role];
      if (address === null) continue;
      const key = `${role}|${address}`;
      const d = deltas.get(key) ?? { role, address, ops: 0, bundles: new Set<string>() };
      d.ops++;
      if (role === 'bundler') d.bundles.add(`${o.transactionHash}#${o.bundleIndex}`);
      deltas.set(key, d);
    }
  }
  // in one order, (role, address), in every transaction: concurrent writers lock the rows alike
  const rows = [...deltas.values()].sort((a, b) => (a.role === b.role ? (a.address < b.address ? -1 : a.address > b.address ? 1 : 0) : a.role < b.role ? -1 : 1)).map((d) => ({ role: d.role, address: d.address, total_ops: sign * d.ops, total_bundles: sign * d.bundles.size }));
  for (const part of chunks(rows, KEY_CHUNK)) {
    await trx('user_operation_parties')
      .insert(part)
      .onConflict(['role', 'address'])
      .merge({
        total_ops: trx.raw('user_operation_parties.total_ops + excluded.total_ops'),
        total_bundles: trx.raw('user_operation_parties.total_bundles + excluded.total_bundles'),
      });
  }
  if (sign < 0) await trx('user_operation_parties').where('total_ops', '<=', 0).delete();
}

/** Take the operations of these blocks off the counts (before they are deleted). */
export async function uncountBlocksParties(trx: Knex.Transaction, hashes: readonly Hash[]): Promise<void> {
  for (const part of chunks(hashes, KEY_CHUNK)) {
    const rows = asRows(await trx('user_operations').select('sender', 'bundler', 'paymaster', 'factory', 'transaction_hash', 'bundle_index').whereIn('block_hash', part));
    await countParties(
      trx,
      rows.map((r) => ({
        sender: str(r, 'sender'),
        bundler: str(r, 'bundler'),
        paymaster: strOrNull(r, 'paymaster'),
        factory: strOrNull(r, 'factory'),
        transactionHash: str(r, 'transaction_hash'),
        bundleIndex: num(r, 'bundle_index'),
      })),
      -1,
    );
  }
}
