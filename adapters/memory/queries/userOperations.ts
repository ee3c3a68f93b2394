/** User operations: one by hash, the keyset list and the bundles (../userOperations.ts). */
import type { VersionedDataSource } from '../../../lib/ports.ts';
import { getUserOperation, getUserOperationParties, listUserOperationBundles, listUserOperationParties, listUserOperations } from '../userOperations.ts';
import type { MemoryReadContext } from './context.ts';

export function userOperationQueries({ s }: MemoryReadContext): Pick<VersionedDataSource, 'getUserOperation' | 'listUserOperations' | 'listUserOperationBundles' | 'listUserOperationParties' | 'getUserOperationParties'> {
  return {
    getUserOperation: async (hash) => getUserOperation(s, hash),
    listUserOperations: async (filter, page) => listUserOperations(s, filter, page),
    listUserOperationBundles: async (filter, page) => listUserOperationBundles(s, filter, page),
    listUserOperationParties: async (role, page) => listUserOperationParties(s, role, page),
    getUserOperationParties: async (role, addresses) => getUserOperationParties(s, role, addresses),
  };
}
