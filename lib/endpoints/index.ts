/** Every endpoint, by name: the table `handle`, `dispatch` and the host route through. */
import type { EndpointName } from '../api.ts';
import { addressBlocksValidated } from './addressBlocksValidated.ts';
import { addressInternalTransactions } from './addressInternalTransactions.ts';
import { addressNftCollections } from './addressNftCollections.ts';
import { addressTokenBalances } from './addressTokenBalances.ts';
import { addressTokens } from './addressTokens.ts';
import { block } from './block.ts';
import { blocks } from './blocks.ts';
import type { AnyEndpoint } from './endpoint.ts';
import { erased } from './endpoint.ts';
import { internalTransactions } from './internalTransactions.ts';
import { tokenInstances } from './tokenInstances.ts';
import { tokenInstanceTransfers } from './tokenInstanceTransfers.ts';
import { tokenTransfers } from './tokenTransfers.ts';
import { tokenTransfersOfToken } from './tokenTransfersOfToken.ts';
import { transaction } from './transaction.ts';
import { transactionLogs } from './transactionLogs.ts';
import { transactions } from './transactions.ts';
import { transactionStateChanges } from './transactionStateChanges.ts';

export const ENDPOINTS = {
  addressTokens,
  addressTokenBalances,
  addressInternalTransactions,
  addressNftCollections,
  addressBlocksValidated,
  transactions,
  transaction,
  transactionStateChanges,
  transactionLogs,
  internalTransactions,
  tokenTransfers,
  tokenInstances,
  tokenInstanceTransfers,
  tokenTransfersOfToken,
  blocks,
  block,
} as const satisfies Readonly<Record<EndpointName, unknown>>;

/** An endpoint by name, with its parameter types erased for dispatch. */
export function endpointByName(name: EndpointName): AnyEndpoint {
  return erased(ENDPOINTS[name]);
}
