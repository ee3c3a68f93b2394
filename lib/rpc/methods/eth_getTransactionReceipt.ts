/**
 * `eth_getTransactionReceipt`: the receipt of a mined transaction (with its logs and bloom); for
 * one the store has not seen mined (a wallet waiting for its transaction while the indexer
 * follows) the node's when one is configured, else null.
 */
import type { RpcMethod } from '../context.ts';
import { forward } from '../context.ts';
import { renderReceipt } from '../format.ts';
import { hash } from '../params.ts';
import { invalidParams } from '../protocol.ts';
import { cumulativeGasUsed } from '../store.ts';

export const eth_getTransactionReceipt: RpcMethod = {
  name: 'eth_getTransactionReceipt',
  async run(ctx, params) {
    const h = hash(params[0], 'transaction hash');
    if (!h.ok) return invalidParams(h.message);
    const unknown = () => (ctx.chain.node === undefined ? { result: null } : forward(ctx, { method: 'eth_getTransactionReceipt', params }));
    const tx = await ctx.ds.getTransaction(h.value);
    if (tx === null || tx.blockNumber === null || tx.blockHash === null || tx.index === null) return unknown();
    const [block, logs, cumulative] = await Promise.all([
      ctx.ds.getBlock({ hash: tx.blockHash }),
      ctx.ds.listLogs({ transactionHash: tx.hash }, { after: null, limit: 100_000, order: 'asc' }),
      cumulativeGasUsed(ctx.ds, tx.blockNumber, tx.index),
    ]);
    if (block === null || !block.consensus) return unknown();
    return { result: renderReceipt(tx, logs, cumulative) };
  },
};
