/**
 * `user_operation` on `addresses:{sender}`: the ERC-4337 user operations a batch of blocks
 * carries for a followed account. Blockscout has no such event (its user operations live in a
 * separate service, outside its socket); this one is in its style, as `transaction` is
 * `{transactions: [...]}`: `{user_operations: [...]}`, each item the
 * /proxy/account-abstraction/operations item of that operation, in that list's order (block
 * DESC, hash DESC). Computed only for the addresses someone follows, from the stored operations
 * of the batch's blocks (so a host learning of a write by its notice alone sends it too); a
 * store without the user-operation queries sends none.
 */
import type { Address, Hash } from '../domain/records.ts';
import type { UserOperationRecord } from '../domain/userOperations.ts';
import type { JsonObject } from '../json.ts';
import type { DataSource, UserOperationCursor } from '../ports.ts';
import type { RenderOptions } from '../render/context.ts';
import { loadContext } from '../render/context.ts';
import { renderUserOperationInList } from '../render/userOperation.ts';
import { TOPICS } from './topics.ts';
import { ZERO_HASH } from '../domain/hex.ts';

type Push = (topic: string, event: string, payload: JsonObject) => void;

export const USER_OPERATION_EVENT = 'user_operation';

/** operations read per page of one sender */
const CHUNK = 1000;

/** The operations of `sender` in blocks `from..to`, newest first (block DESC, hash DESC). */
async function operationsOf(ds: DataSource, list: NonNullable<DataSource['listUserOperations']>, sender: Address, from: number, to: number): Promise<UserOperationRecord[]> {
  const out: UserOperationRecord[] = [];
  // strictly past (to + 1, 0x00…): every operation of block `to` and below
  let after: UserOperationCursor = { blockNumber: to + 1, hash: ZERO_HASH };
  for (;;) {
    const rows = await list.call(ds, { sender }, { after, limit: CHUNK, order: 'desc' });
    for (const o of rows) {
      if (o.blockNumber < from) return out;
      out.push(o);
    }
    const last = rows[rows.length - 1];
    if (last === undefined || rows.length < CHUNK) return out;
    after = { blockNumber: last.blockNumber, hash: last.hash };
  }
}

/** `user_operation` on the topic of each followed address that sent operations in `range`. */
export async function userOperationEvents(
  ds: DataSource,
  range: { readonly from: number; readonly to: number },
  followed: readonly Address[],
  render: RenderOptions,
  push: Push,
): Promise<void> {
  const list = ds.listUserOperations;
  if (list === undefined || followed.length === 0) return;
  // most batches hold no operation at all: one probe then, not one query per followed address
  const [newest] = await list.call(ds, {}, { after: { blockNumber: range.to + 1, hash: ZERO_HASH }, limit: 1, order: 'desc' });
  if (newest === undefined || newest.blockNumber < range.from) return;
  const found = await Promise.all(followed.map(async (a) => ({ a, ops: await operationsOf(ds, list, a, range.from, range.to) })));
  const withOps = found.filter((f) => f.ops.length > 0);
  if (withOps.length === 0) return;
  const ctx = await loadContext(ds, { addresses: withOps.flatMap((f) => f.ops.flatMap((o) => [o.sender, o.entryPoint])) }, render);
  for (const { a, ops } of withOps) push(TOPICS.address(a), USER_OPERATION_EVENT, { user_operations: ops.map((o) => renderUserOperationInList(o, ctx)) });
}
