/**
 * `contract/getsourcecode`: `address` → a one-element list of Etherscan's metadata; unverified
 * (every contract here) → empty fields and `ABI: "Contract source code not verified"`, status 1.
 */
import type { EtherscanAction } from '../action.ts';
import { ok } from '../action.ts';
import { addressParam } from '../params.ts';
import { NOT_VERIFIED } from './contract.getabi.ts';
import { CONTRACT_ADDRESS } from '../paramDocs.ts';

export const getsourcecode: EtherscanAction = {
  module: 'contract',
  action: 'getsourcecode',
  summary: "A contract's verified source code",
  params: [CONTRACT_ADDRESS],
  async run(_ctx, query) {
    const address = addressParam(query);
    if ('error' in address) return address.error;
    return ok([
      {
        Address: address.value,
        SourceCode: '',
        ABI: NOT_VERIFIED,
        ContractName: '',
        CompilerVersion: '',
        OptimizationUsed: '',
        DecompiledSourceCode: '',
        DecompilerVersion: '',
      },
    ]);
  },
};
