/**
 * `eth_gasPrice` from recent blocks, as anvil and geth suggest it: the base fee of the next block
 * plus the suggested tip (see lib/rpc/fees.ts). Without base fees: the typical tip alone (1 gwei
 * on an empty chain).
 */
import type { RpcMethod } from '../context.ts';
import { suggestedTip, suggestFees } from '../fees.ts';
import { hexQuantity } from '../params.ts';

export const eth_gasPrice: RpcMethod = {
  name: 'eth_gasPrice',
  async run(ctx) {
    const s = await suggestFees(ctx.ds);
    return { result: hexQuantity(s.nextBaseFee === null ? s.typicalTip : s.nextBaseFee + suggestedTip(s)) };
  },
};
