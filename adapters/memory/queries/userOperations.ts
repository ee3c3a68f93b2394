/** User operations: one by hash, the keyset list, the bundles, the parties and the accounts (../userOperations.ts). */
import type { VersionedDataSource } from '../../../lib/ports.ts';
import { getUserOperation, getUserOperationParties, listUserOperationBundles, listUserOperationAccounts, listUserOperationParties, listUserOperations } from '../userOperations.ts';
import type { MemoryReadContext } from './context.ts';

export function userOperationQueries({ s }: MemoryReadContext): Pick<VersionedDataSource, 'getUserOperation' | 'listUserOperations' | 'listUserOperationBundles' | 'listUserOperationParties' | 'getUserOperationParties' | 'listUserOperationAccounts'> {
  return {
    getUserOperation: async (hash) => getUserOperation(s, hash),
    listUserOperations: async (filter, page) => listUserOperations(s, filter, page),
    listUserOperationBundles: async (filter, page) => listUserOperationBundles(s, filter, page),
    listUserOperationParties: async (role, page) => listUserOperationParties(s, role, page),
    getUserOperationParties: async (role, addresses) => getUserOperationParties(s, role, addresses),
    listUserOperationAccounts: async (filter, page) => listUserOperationAccounts(s, filter, page),
  };
}
