/** `eth_getBlockByNumber`: by number or tag (latest, safe, finalized and pending are the store's head). */
import type { RpcMethod } from '../context.ts';
import { blockSpec } from '../params.ts';
import { invalidParams } from '../protocol.ts';
import { getBlock } from './getBlock.ts';

export const eth_getBlockByNumber: RpcMethod = {
  name: 'eth_getBlockByNumber',
  async run(ctx, params) {
    if (params[0] === undefined) return invalidParams('missing block number');
    const spec = blockSpec(params[0]);
    if (!spec.ok || spec.value.kind === 'hash') return invalidParams(spec.ok ? 'expected a block number or tag' : spec.message);
    return getBlock(ctx, spec.value, params[1]);
  },
};
