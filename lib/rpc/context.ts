/** What every JSON-RPC method runs against: the chain's config (its store, its node if any) and its id. */
import type { ChainConfig } from '../chain-config.ts';
import type { DataSource } from '../ports.ts';
import type { RpcCall, RpcOutcome } from './protocol.ts';
import { RPC_CODES, rpcError } from './protocol.ts';

export interface RpcContext {
  /** the chain's config: its store and the node that answers state reads (if any) */
  readonly chain: ChainConfig;
  /** the chain's store: `chain.store` */
  readonly ds: DataSource;
  /** the chain id the explorer serves this store under (decimal) */
  readonly chainId: string;
}

/** One JSON-RPC method: its name and how it answers its params. */
export interface RpcMethod {
  readonly name: string;
  run(ctx: RpcContext, params: readonly unknown[]): Promise<RpcOutcome>;
}

export const NO_NODE_MESSAGE = 'no node is configured for this chain (serve --rpc): this method needs the chain state';

export const NODE_DOWN_MESSAGE = 'the node did not answer';

/** Hand the call to the node, or say there is none (or that it did not answer). */
export async function forward(ctx: RpcContext, call: RpcCall): Promise<RpcOutcome> {
  const node = ctx.chain.node;
  if (node === undefined) return rpcError(RPC_CODES.serverError, `${call.method}: ${NO_NODE_MESSAGE}`);
  try {
    return await node.forward(call);
  } catch {
    return rpcError(RPC_CODES.serverError, `${call.method}: ${NODE_DOWN_MESSAGE}`);
  }
}
