/**
 * GET /transactions/{transaction_hash_param}/fhe-operations — the transaction's FHE operations
 * and their HCU metrics. Blockscout reads them from the operations its indexer parsed out of an
 * fhEVM coprocessor's events; on a chain without them (and in scoutkit, which indexes none, as
 * every Transaction's `fhe_operations_count: 0` says) it answers no items and zero metrics.
 * 404 for an unknown transaction.
 */
import * as E from 'fp-ts/lib/Either.js';
import { notFound } from '../errors.ts';
import { fullHash } from '../params/codecs.ts';
import { FheOperations } from '../schema/fhe.ts';
import { defineEndpoint } from './endpoint.ts';

export const transactionFheOperations = defineEndpoint({
  route: '/transactions/{transaction_hash_param}/fhe-operations',
  summary: "A transaction's FHE operations and HCU metrics (none are indexed: empty)",
  path: { transaction_hash_param: fullHash },
  query: {},
  response: FheOperations,
  handler:
    ({ ds }) =>
    ({ path }) =>
    async () => {
      const tx = await ds.getTransaction(path.transaction_hash_param);
      if (tx === null) return E.left(notFound);
      return E.right({ items: [], total_hcu: 0, max_depth_hcu: 0, operation_count: 0 });
    },
});
