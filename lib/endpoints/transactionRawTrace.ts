/**
 * GET /transactions/{transaction_hash_param}/raw-trace — the node's callTracer tree of the
 * transaction, rebuilt from the frames the indexer kept (Blockscout on a Geth-style node passes
 * `debug_traceTransaction` with callTracer through unchanged). 404 for an unknown transaction;
 * `[]` for a pending one; a mined one without kept frames (a node without traces) → 404 with a
 * message saying so (Blockscout answers 500 `"Error while raw trace fetching"` when its node
 * cannot trace; the store simply does not hold this trace, which is no server failure).
 */
import * as E from 'fp-ts/lib/Either.js';
import { notFound } from '../errors.ts';
import { fullHash } from '../params/codecs.ts';
import { renderCallTrace } from '../render/contract.ts';
import { RawTrace } from '../schema/contract.ts';
import { defineEndpoint } from './endpoint.ts';

export const transactionRawTrace = defineEndpoint({
  route: '/transactions/{transaction_hash_param}/raw-trace',
  summary: "A transaction's call tree as the node's callTracer reported it",
  path: { transaction_hash_param: fullHash },
  query: {},
  response: RawTrace,
  handler:
    ({ ds }) =>
    ({ path }) =>
    async () => {
      const tx = await ds.getTransaction(path.transaction_hash_param);
      if (tx === null) return E.left(notFound);
      if (tx.blockNumber === null) return E.right([]);
      const tree = renderCallTrace(await ds.getTransactionTrace(tx.hash));
      return tree === null ? E.left({ kind: 'TraceUnavailable' }) : E.right(tree);
    },
});
