/** `net_version`: the network id as a decimal string — the chain id the explorer serves this store under. */
import type { RpcMethod } from '../context.ts';
import { RPC_CODES, rpcError } from '../protocol.ts';

export const net_version: RpcMethod = {
  name: 'net_version',
  async run(ctx) {
    return /^\d+$/.test(ctx.chainId) ? { result: BigInt(ctx.chainId).toString() } : rpcError(RPC_CODES.serverError, `chain id "${ctx.chainId}" is not a number`);
  },
};
