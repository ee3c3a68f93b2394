/**
 * The DataSource over State: one module per record kind in queries/, composed here. Point
 * lookups come from the keyed indexes, lists from the sorted views, each following the order
 * and cursor rule of lib/ports.ts (see compare.ts).
 */
import type { VersionedDataSource } from '../../lib/ports.ts';
import { createAccountReader } from './accounts.ts';
import { addressQueries } from './queries/addresses.ts';
import { blockQueries } from './queries/blocks.ts';
import { coinBalanceQueries } from './queries/coinBalances.ts';
import type { MemoryReadContext } from './queries/context.ts';
import { contractQueries } from './queries/contracts.ts';
import { proxyQueries } from './queries/proxies.ts';
import { internalTransactionQueries } from './queries/internalTransactions.ts';
import { logQueries } from './queries/logs.ts';
import { stateChangeQueries } from './queries/stateChanges.ts';
import { tokenBalanceQueries } from './queries/tokenBalances.ts';
import { tokenInstanceQueries } from './queries/tokenInstances.ts';
import { tokenQueries } from './queries/tokens.ts';
import { tokenTransferQueries } from './queries/tokenTransfers.ts';
import { traceQueries } from './queries/traces.ts';
import { transactionQueries } from './queries/transactions.ts';
import { userOperationQueries } from './queries/userOperations.ts';
import { withdrawalQueries } from './queries/withdrawals.ts';
import type { State } from './state.ts';
import { createStatsReader } from './statsQueries.ts';
import { Views } from './views.ts';

export function createReader(s: State): VersionedDataSource {
  let current = new Views(s);
  const c: MemoryReadContext = {
    s,
    views: () => (current.version === s.version ? current : (current = new Views(s))),
  };
  return {
    ...createStatsReader(s, () => c.views().blocks.consensus),
    ...createAccountReader(s),
    getDataVersion: async () => String(s.version),
    // every write goes through this State, in this process: the version is known without asking
    dataVersionSignal: { shared: false, local: () => s.version },
    ...blockQueries(c),
    ...transactionQueries(c),
    ...internalTransactionQueries(c),
    ...tokenTransferQueries(c),
    ...logQueries(c),
    ...coinBalanceQueries(c),
    ...tokenQueries(c),
    ...addressQueries(c),
    ...tokenBalanceQueries(c),
    ...tokenInstanceQueries(c),
    ...withdrawalQueries(c),
    ...stateChangeQueries(c),
    ...traceQueries(c),
    ...contractQueries(c),
    ...proxyQueries(c),
    ...userOperationQueries(c),
  };
}
