/** `contract/getabi`: `address` → the ABI; nothing is verified here, so "Contract source code not verified". */
import type { EtherscanAction } from '../action.ts';
import { fail } from '../action.ts';
import { addressParam } from '../params.ts';
import { CONTRACT_ADDRESS } from '../paramDocs.ts';

export const NOT_VERIFIED = 'Contract source code not verified';

export const getabi: EtherscanAction = {
  module: 'contract',
  action: 'getabi',
  summary: "A verified contract's ABI",
  params: [CONTRACT_ADDRESS],
  async run(_ctx, query) {
    const address = addressParam(query);
    if ('error' in address) return address.error;
    return fail(NOT_VERIFIED);
  },
};
