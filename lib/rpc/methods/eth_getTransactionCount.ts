/**
 * `eth_getTransactionCount`: an account's nonce. At a stored block (by number, hash or
 * `earliest`) from the store's transactions where it can say it exactly (lib/rpc/nonce.ts);
 * `pending` — what a wallet asks before signing — and, with a node, `latest`, `safe` and
 * `finalized` from the node, whose head and mempool hold every transaction sent (the store
 * follows behind). Everything the store cannot say goes to the node; without one, `latest` is
 * the store's head (as `eth_blockNumber`) and the rest a -32000 error.
 */
import type { RpcMethod } from '../context.ts';
import { forward } from '../context.ts';
import { storedNonce } from '../nonce.ts';
import { address, blockSpec, hexQuantity } from '../params.ts';
import { invalidParams } from '../protocol.ts';
import { resolveNumber } from '../store.ts';

export const eth_getTransactionCount: RpcMethod = {
  name: 'eth_getTransactionCount',
  async run(ctx, params) {
    const who = address(params[0]);
    if (!who.ok) return invalidParams(who.message);
    const spec = blockSpec(params[1]);
    if (!spec.ok) return invalidParams(spec.message);
    const call = { method: 'eth_getTransactionCount', params };
    const s = spec.value;
    if (s.kind === 'tag' && (s.tag === 'pending' || (s.tag !== 'earliest' && ctx.chain.node !== undefined))) return forward(ctx, call);
    const [head, at] = await Promise.all([ctx.ds.getHighestBlockNumber(), resolveNumber(ctx.ds, s)]);
    if (head === null || at === null || at > head) return forward(ctx, call);
    const nonce = await storedNonce(ctx.ds, who.value, at);
    return nonce === null ? forward(ctx, call) : { result: hexQuantity(nonce) };
  },
};
