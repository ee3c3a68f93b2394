/**
 * GET /proxy/account-abstraction/operations/{operation_hash_param} — one ERC-4337 user
 * operation (of a consensus block) in Blockscout's UserOperation shape: its addresses as Address
 * objects, `call_data` and `execute_call_data` decoded (verified ABIs, library users' ABIs, the
 * signature table). Unknown hash, or a store without user operations (lib/ports/userOperations.ts):
 * 404 in the user-ops-indexer's body `{"code":5,"message":"user operation not found"}`.
 */
import * as E from 'fp-ts/lib/Either.js';
import { fullHash } from '../params/codecs.ts';
import { loadContext } from '../render/context.ts';
import { renderUserOperation, userOperationAddresses } from '../render/userOperation.ts';
import { UserOperation } from '../schema/userOperation.ts';
import { defineEndpoint } from './endpoint.ts';
import { userOperationNotFound } from './userOperationPage.ts';

export const userOperation = defineEndpoint({
  route: '/proxy/account-abstraction/operations/{operation_hash_param}',
  summary: 'One ERC-4337 user operation by its hash, its call data decoded',
  path: { operation_hash_param: fullHash },
  query: {},
  response: UserOperation,
  handler:
    ({ ds, render }) =>
    ({ path }) =>
    async () => {
      const op = ds.getUserOperation === undefined ? null : await ds.getUserOperation(path.operation_hash_param);
      if (op === null) return E.left(userOperationNotFound('user operation'));
      const ctx = await loadContext(ds, { addresses: userOperationAddresses(op), decode: true }, render);
      return E.right(renderUserOperation(op, ctx));
    },
});
