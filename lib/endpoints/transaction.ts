/** GET /transactions/{transaction_hash_param} — with the first 10 token transfers (log index ASC). */
import * as E from 'fp-ts/lib/Either.js';
import { notFound } from '../errors.ts';
import { fullHash } from '../params/codecs.ts';
import { loadContext } from '../render/context.ts';
import { renderTransaction, transactionRefs } from '../render/transaction.ts';
import { expandTransfer, renderTransfer, transferRefs } from '../render/transfer.ts';
import { defineEndpoint } from './endpoint.ts';
import { Transaction } from '../schema/transaction.ts';

/** Embedded token transfers cap, as Blockscout. */
export const EMBEDDED_TRANSFERS = 10;

export const transaction = defineEndpoint({
  route: '/transactions/{transaction_hash_param}',
  summary: 'A transaction, with its first 10 token transfers',
  path: { transaction_hash_param: fullHash },
  query: {},
  response: Transaction,
  handler:
    ({ ds, render }) =>
    ({ path }) =>
    async () => {
      const tx = await ds.getTransaction(path.transaction_hash_param);
      if (tx === null) return E.left(notFound);
      const records = await ds.listTokenTransfers(
        { transactionHash: tx.hash },
        { after: null, limit: EMBEDDED_TRANSFERS + 1, order: 'asc' },
      );
      const items = records.flatMap((r) => expandTransfer(r));
      const shown = items.slice(0, EMBEDDED_TRANSFERS);
      const txRefs = transactionRefs([tx]);
      const ttRefs = transferRefs(shown);
      const ctx = await loadContext(
        ds,
        { ...ttRefs, addresses: [...txRefs.addresses, ...ttRefs.addresses], tokens: ttRefs.tokens, highestBlock: true, decode: true },
        render,
      );
      return E.right(
        renderTransaction(tx, ctx, {
          detail: true,
          tokenTransfers: { items: shown.map((i) => renderTransfer(i, ctx)), overflow: items.length > EMBEDDED_TRANSFERS },
        }),
      );
    },
});
