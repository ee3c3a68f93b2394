/**
 * The requests the conformance suite makes: one or more per endpoint, each with the OpenAPI
 * path template it must validate against.
 */
import type { EndpointName } from '../../lib/index.ts';
import type { FixtureFacts } from '../../fixture/index.ts';

export interface Case {
  readonly endpoint: EndpointName;
  /** path template of the official documents (below /api/v2) */
  readonly template: string;
  /** concrete path below /api/v2 */
  readonly path: string;
  readonly query?: Readonly<Record<string, string>>;
  readonly status?: number;
}

export const TEMPLATES: Readonly<Record<EndpointName, string>> = {
  addressTokens: '/addresses/{address_hash_param}/tokens',
  addressTokenBalances: '/addresses/{address_hash_param}/token-balances',
  addressInternalTransactions: '/addresses/{address_hash_param}/internal-transactions',
  addressNftCollections: '/addresses/{address_hash_param}/nft/collections',
  addressBlocksValidated: '/addresses/{address_hash_param}/blocks-validated',
  transactions: '/transactions',
  transaction: '/transactions/{transaction_hash_param}',
  transactionStateChanges: '/transactions/{transaction_hash_param}/state-changes',
  transactionLogs: '/transactions/{transaction_hash_param}/logs',
  internalTransactions: '/internal-transactions',
  tokenTransfers: '/token-transfers',
  tokenInstances: '/tokens/{address_hash_param}/instances',
  tokenInstanceTransfers: '/tokens/{address_hash_param}/instances/{token_id_param}/transfers',
  tokenTransfersOfToken: '/tokens/{address_hash_param}/transfers',
  blocks: '/blocks',
  block: '/blocks/{block_hash_or_number_param}',
};

export function endpointCases(f: FixtureFacts): Case[] {
  const tx = f.transactions;
  const c = (endpoint: EndpointName, path: string, query?: Record<string, string>): Case => ({
    endpoint,
    template: TEMPLATES[endpoint],
    path,
    ...(query === undefined ? {} : { query }),
  });
  const txCases = Object.entries(tx)
    .filter(([, v]) => typeof v === 'string' && v.length === 66)
    .map(([, h]) => h as string);
  return [
    c('addressTokens', `/addresses/${f.hotAddress}/tokens`),
    c('addressTokens', `/addresses/${f.hotAddress}/tokens`, { type: 'ERC-1155,ERC-404' }),
    c('addressTokens', `/addresses/${f.eoas.alice}/tokens`),
    c('addressTokenBalances', `/addresses/${f.hotAddress}/token-balances`),
    c('addressTokenBalances', `/addresses/${f.eoas.bob}/token-balances`),
    c('addressInternalTransactions', `/addresses/${f.hotAddress}/internal-transactions`),
    c('addressInternalTransactions', `/addresses/${f.hotAddress}/internal-transactions`, { filter: 'to' }),
    c('addressNftCollections', `/addresses/${f.hotAddress}/nft/collections`),
    c('addressNftCollections', `/addresses/${f.eoas.alice}/nft/collections`),
    c('addressBlocksValidated', `/addresses/${f.miner}/blocks-validated`),
    c('transactions', '/transactions'),
    c('transactions', '/transactions', { filter: 'pending' }),
    ...txCases.map((h) => c('transaction', `/transactions/${h}`)),
    ...txCases.map((h) => c('transactionStateChanges', `/transactions/${h}/state-changes`)),
    ...txCases.map((h) => c('transactionLogs', `/transactions/${h}/logs`)),
    c('internalTransactions', '/internal-transactions'),
    c('internalTransactions', '/internal-transactions', { transaction_hash: tx.createdByContract }),
    c('tokenTransfers', '/token-transfers'),
    c('tokenTransfers', '/token-transfers', { type: 'ERC-1155' }),
    c('tokenTransfers', '/token-transfers', { type: 'ERC-7984,ERC-404' }),
    c('tokenInstances', `/tokens/${f.instancesToken}/instances`),
    c('tokenInstances', `/tokens/${f.tokens.erc1155}/instances`),
    c('tokenInstances', `/tokens/${f.tokens.erc1155}/instances`, { holder_address_hash: f.hotAddress }),
    c('tokenInstanceTransfers', `/tokens/${f.tokens.erc721}/instances/${f.bigTokenId}/transfers`),
    c('tokenInstanceTransfers', `/tokens/${f.tokens.erc1155}/instances/${f.huge1155Id}/transfers`),
    c('tokenTransfersOfToken', `/tokens/${f.busyToken}/transfers`),
    c('tokenTransfersOfToken', `/tokens/${f.tokens.erc1155}/transfers`),
    c('blocks', '/blocks'),
    c('block', `/blocks/${f.headBlockNumber}`),
    c('block', `/blocks/${f.headBlockHash}`),
  ];
}
