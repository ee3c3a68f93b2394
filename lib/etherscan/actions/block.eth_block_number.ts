/**
 * `block/eth_block_number`: the head as a JSON-RPC envelope `{"jsonrpc":"2.0","result":"0x…","id":…}`;
 * `id` is echoed as given (a string), 1 when absent. An empty store answers result null.
 */
import type { EtherscanAction } from '../action.ts';
import { rpcShaped } from '../action.ts';
import { param } from '../params.ts';
import { hex } from '../rows.ts';

export const eth_block_number: EtherscanAction = {
  module: 'block',
  action: 'eth_block_number',
  summary: 'The number of the newest block (a JSON-RPC shaped body)',
  params: [{ name: 'id', description: 'The JSON-RPC id to answer with (default 1)' }],
  shape: 'json-rpc',
  async run(ctx, query) {
    const head = await ctx.ds.getHighestBlockNumber();
    return rpcShaped(param(query, 'id') ?? 1, { result: head === null ? null : hex(head) });
  },
};
