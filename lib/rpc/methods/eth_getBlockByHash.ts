/** `eth_getBlockByHash`: a consensus block by hash, else null. */
import type { RpcMethod } from '../context.ts';
import { hash } from '../params.ts';
import { invalidParams } from '../protocol.ts';
import { getBlock } from './getBlock.ts';

export const eth_getBlockByHash: RpcMethod = {
  name: 'eth_getBlockByHash',
  async run(ctx, params) {
    const h = hash(params[0], 'block hash');
    if (!h.ok) return invalidParams(h.message);
    return getBlock(ctx, { kind: 'hash', hash: h.value }, params[1]);
  },
};
