/** `eth_chainId`: the chain id the explorer serves this store under. */
import type { RpcMethod } from '../context.ts';
import { chainIdQuantity } from '../format.ts';
import { RPC_CODES, rpcError } from '../protocol.ts';

export const eth_chainId: RpcMethod = {
  name: 'eth_chainId',
  async run(ctx) {
    const id = chainIdQuantity(ctx.chainId);
    return id === null ? rpcError(RPC_CODES.serverError, `chain id "${ctx.chainId}" is not a number`) : { result: id };
  },
};
