/** User operations: one by hash, the keyset list and the bundles (../userOperations.ts). */
import type { VersionedDataSource } from '../../../lib/ports.ts';
import { getUserOperation, listUserOperationBundles, listUserOperations } from '../userOperations.ts';
import type { MemoryReadContext } from './context.ts';

export function userOperationQueries({ s }: MemoryReadContext): Pick<VersionedDataSource, 'getUserOperation' | 'listUserOperations' | 'listUserOperationBundles'> {
  return {
    getUserOperation: async (hash) => getUserOperation(s, hash),
    listUserOperations: async (filter, page) => listUserOperations(s, filter, page),
    listUserOperationBundles: async (filter, page) => listUserOperationBundles(s, filter, page),
  };
}
