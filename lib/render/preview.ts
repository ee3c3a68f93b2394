/**
 * The lightweight transaction preview (Blockscout's TransactionView `preview.json`): status,
 * block timestamp, method, and the two parties as {hash, name, ens_domain_name, metadata}.
 */
import type { Address, TransactionRecord } from '../domain/records.ts';
import type * as t from 'io-ts';
import type { Preview, PreviewAddress } from '../schema/preview.ts';
import type { RenderContext } from './context.ts';
import { checksum, isoOrNull } from './format.ts';
import type { DecodeContext } from './decode.ts';
import { transactionMethod } from './transaction.ts';

function previewAddress(hash: Address | null, ctx: Pick<RenderContext, 'addresses'>): t.OutputOf<typeof PreviewAddress> | null {
  if (hash === null) return null;
  return { hash: checksum(hash), name: ctx.addresses.get(hash)?.name ?? null, ens_domain_name: null, metadata: null };
}

/**
 * `method`: without `decode_input` the selector when the transaction calls a contract, else
 * null (Blockscout's `method_name` with no decoded input); with it, the decoded method's name
 * where the input decodes (the transaction detail's `method`).
 */
export function renderPreview(tx: TransactionRecord, ctx: Pick<RenderContext, 'addresses'> & DecodeContext, decode: boolean): t.OutputOf<typeof Preview> {
  const toIsContract = tx.to !== null && (ctx.addresses.get(tx.to)?.isContract ?? false);
  return {
    status: tx.status,
    timestamp: isoOrNull(tx.timestamp),
    method: decode ? transactionMethod(tx, toIsContract, ctx) : toIsContract ? tx.methodId : null,
    from: previewAddress(tx.from, ctx),
    to: previewAddress(tx.to, ctx),
  };
}
