/** `token/getToken`: `contractaddress` → `{type, name, symbol, totalSupply, decimals, contractAddress, cataloged}`. */
import type { EtherscanAction } from '../action.ts';
import { fail, ok } from '../action.ts';
import { addressParam } from '../params.ts';
import { str } from '../rows.ts';
import { CONTRACTADDRESS } from '../paramDocs.ts';

export const gettoken: EtherscanAction = {
  module: 'token',
  action: 'gettoken',
  summary: "A token's name, symbol, supply and type",
  params: [CONTRACTADDRESS],
  async run(ctx, query) {
    const address = addressParam(query, 'contractaddress');
    if ('error' in address) return address.error;
    const token = await ctx.ds.getToken(address.value);
    if (token === null) return fail('Contract address not found');
    return ok({
      type: token.type,
      name: str(token.name),
      symbol: str(token.symbol),
      totalSupply: str(token.totalSupply),
      decimals: str(token.decimals),
      contractAddress: token.address,
      cataloged: true,
    });
  },
};
