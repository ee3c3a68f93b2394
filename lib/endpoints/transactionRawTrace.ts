/**
 * GET /transactions/{transaction_hash_param}/raw-trace — the transaction's traces as the
 * Parity-style array both official documents describe (RawTrace), rebuilt from the callTracer
 * frames the indexer kept as Blockscout renders the internal transactions it parsed from a
 * Geth-style node (lib/render/rawTrace.ts). 404 for an unknown transaction; `[]` for a pending
 * one; a mined one without kept frames (a node without traces) → 404 with a message saying so
 * (Blockscout answers 500 `"Error while raw trace fetching"` when its node cannot trace; the
 * store simply does not hold this trace, which is no server failure).
 */
import * as E from 'fp-ts/lib/Either.js';
import { notFound } from '../errors.ts';
import { fullHash } from '../params/codecs.ts';
import { renderRawTrace } from '../render/rawTrace.ts';
import { RawTrace } from '../schema/contract.ts';
import { defineEndpoint } from './endpoint.ts';

export const transactionRawTrace = defineEndpoint({
  route: '/transactions/{transaction_hash_param}/raw-trace',
  summary: "A transaction's traces, Parity style (action, result or error, subtraces, traceAddress, type)",
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
      const frames = (await ds.getTransactionTrace?.(tx.hash)) ?? [];
      return frames.length === 0 ? E.left({ kind: 'TraceUnavailable' }) : E.right(renderRawTrace(frames));
    },
});
