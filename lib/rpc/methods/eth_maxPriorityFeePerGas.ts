/**
 * `eth_maxPriorityFeePerGas`: the tip `eth_gasPrice` adds to the next base fee (the recent blocks'
 * typical lowest tip, at least 1 gwei; see lib/rpc/fees.ts), as anvil suggests it. viem's and
 * ethers' fee estimates ask for it before a send.
 */
import type { RpcMethod } from '../context.ts';
import { suggestedTip, suggestFees } from '../fees.ts';
import { hexQuantity } from '../params.ts';

export const eth_maxPriorityFeePerGas: RpcMethod = {
  name: 'eth_maxPriorityFeePerGas',
  async run(ctx) {
    return { result: hexQuantity(suggestedTip(await suggestFees(ctx.ds))) };
  },
};
