/**
 * GET /transactions/{transaction_hash_param}/preview — the lightweight preview for social-media
 * embeds (Blockscout 11.2.7; the Pro API does not document it). `preload_ens` and
 * `preload_metadata` are accepted: without an ENS or metadata service their fields stay null,
 * as Blockscout's do without those services. 404 for an unknown transaction.
 */
import * as E from 'fp-ts/lib/Either.js';
import { notFound } from '../errors.ts';
import { boolean, fullHash } from '../params/codecs.ts';
import { loadContext } from '../render/context.ts';
import { renderPreview } from '../render/preview.ts';
import { Preview } from '../schema/preview.ts';
import { defineEndpoint } from './endpoint.ts';

export const transactionPreview = defineEndpoint({
  route: '/transactions/{transaction_hash_param}/preview',
  summary: 'A lightweight transaction preview: status, timestamp, method, from and to',
  path: { transaction_hash_param: fullHash },
  query: { preload_ens: boolean, preload_metadata: boolean, decode_input: boolean },
  response: Preview,
  handler:
    ({ ds, render }) =>
    ({ path, query }) =>
    async () => {
      const tx = await ds.getTransaction(path.transaction_hash_param);
      if (tx === null) return E.left(notFound);
      const ctx = await loadContext(ds, { addresses: [tx.from, tx.to], ...(query.decode_input === true ? { decode: true } : {}) }, render);
      return E.right(renderPreview(tx, ctx, query.decode_input === true));
    },
});
