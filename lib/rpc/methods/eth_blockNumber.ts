/** `eth_blockNumber`: the store's highest consensus block (0x0 when empty, as a fresh node). */
import type { RpcMethod } from '../context.ts';
import { hexQuantity } from '../params.ts';

export const eth_blockNumber: RpcMethod = {
  name: 'eth_blockNumber',
  async run(ctx) {
    return { result: hexQuantity((await ctx.ds.getHighestBlockNumber()) ?? 0) };
  },
};
