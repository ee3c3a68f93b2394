/**
 * `eth_getTransactionByHash`: a mined or pending transaction of the store; one the store does
 * not know (yet: a transaction just sent, a block not indexed yet) from the node when one is
 * configured, else null.
 */
import type { RpcMethod } from '../context.ts';
import { forward } from '../context.ts';
import { renderTransaction } from '../format.ts';
import { hash } from '../params.ts';
import { invalidParams } from '../protocol.ts';

export const eth_getTransactionByHash: RpcMethod = {
  name: 'eth_getTransactionByHash',
  async run(ctx, params) {
    const h = hash(params[0], 'transaction hash');
    if (!h.ok) return invalidParams(h.message);
    const tx = await ctx.ds.getTransaction(h.value);
    // unknown, or a copy in a block that lost consensus only: the store cannot say where it is now
    if (tx === null || (tx.blockHash !== null && (await ctx.ds.getBlock({ hash: tx.blockHash }))?.consensus === false)) {
      return ctx.chain.node === undefined ? { result: null } : forward(ctx, { method: 'eth_getTransactionByHash', params });
    }
    return { result: renderTransaction(tx, ctx.chainId) };
  },
};
