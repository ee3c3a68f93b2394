/**
 * `contract/verify_vyper_contract` (Blockscout's synchronous Vyper verification): no Vyper
 * compiler here, so always the refusal `{"status":"0","message":text,"result":text}` naming why,
 * whatever the parameters (Solidity is verified with verifysourcecode).
 */
import { VYPER_UNAVAILABLE } from '../../endpoints/verificationForm.ts';
import type { EtherscanAction } from '../action.ts';
import { refuse } from '../verification.ts';

export const verify_vyper_contract: EtherscanAction = {
  module: 'contract',
  action: 'verify_vyper_contract',
  summary: 'Verify a Vyper contract (not available: no Vyper compiler here; always refused)',
  params: [
    { name: 'addressHash', description: 'The contract', required: true, example: 'contract' },
    { name: 'name', description: "The contract's name" },
    { name: 'compilerVersion', description: 'The Vyper version' },
    { name: 'contractSourceCode', description: 'The Vyper source' },
  ],
  run: () => Promise.resolve(refuse(VYPER_UNAVAILABLE)),
};
