/**
 * `eth_getBalance`: at the store's head (latest, safe, finalized, pending, or the head's number
 * or hash) from the store's coin balances; at any other block, or for an address the store has
 * no balance of, from the node. Without a node, an address the indexed chain never touched
 * has balance 0x0 (what an explorer shows); an older block is a -32000 error.
 */
import type { RpcMethod } from '../context.ts';
import { forward } from '../context.ts';
import { address, blockSpec, hexQuantity } from '../params.ts';
import { invalidParams } from '../protocol.ts';
import { resolveNumber } from '../store.ts';

export const eth_getBalance: RpcMethod = {
  name: 'eth_getBalance',
  async run(ctx, params) {
    const who = address(params[0]);
    if (!who.ok) return invalidParams(who.message);
    const spec = blockSpec(params[1]);
    if (!spec.ok) return invalidParams(spec.message);
    const call = { method: 'eth_getBalance', params };
    const [head, at] = await Promise.all([ctx.ds.getHighestBlockNumber(), resolveNumber(ctx.ds, spec.value)]);
    if (head === null || at !== head || ctx.ds.getCoinBalance === undefined) return forward(ctx, call);
    const balance = await ctx.ds.getCoinBalance(who.value);
    if (balance === null && ctx.chain.node !== undefined) return forward(ctx, call);
    return { result: hexQuantity(balance ?? 0n) };
  },
};
