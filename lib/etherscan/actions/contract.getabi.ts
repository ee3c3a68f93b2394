/**
 * `contract/getabi`: `address` → the ABI of the verified contract it runs (its own, or a bytecode
 * twin's, as Blockscout) as a JSON string; none → Etherscan's
 * `{"status":"0","message":"NOTOK","result":"Contract source code not verified"}`.
 */
import type { EtherscanAction } from '../action.ts';
import { ok } from '../action.ts';
import { addressParam } from '../params.ts';
import { CONTRACT_ADDRESS } from '../paramDocs.ts';
import { abiText, notVerified, verificationOf } from '../verified.ts';

export { NOT_VERIFIED } from '../verified.ts';

export const getabi: EtherscanAction = {
  module: 'contract',
  action: 'getabi',
  summary: "A verified contract's ABI",
  params: [CONTRACT_ADDRESS],
  async run(ctx, query) {
    const address = addressParam(query);
    if ('error' in address) return address.error;
    const verification = await verificationOf(ctx, address.value);
    return verification === undefined ? notVerified() : ok(abiText(verification.contract));
  },
};
