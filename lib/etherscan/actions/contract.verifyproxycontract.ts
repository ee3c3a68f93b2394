/**
 * `contract/verifyproxycontract`: `address` of a verified proxy → a GUID for
 * `checkproxyverification`; its implementation is read from the chain's node off the request
 * path (lib/contracts/proxyCheck.ts). forge's `expectedimplementation` is ignored, as Blockscout
 * ignores it. Refusals as Blockscout's: `Smart-contract not found or is not verified`,
 * `Invalid address hash`.
 */
import { submitProxyCheck } from '../../contracts/proxyCheck.ts';
import type { Address } from '../../domain/records.ts';
import type { EtherscanAction } from '../action.ts';
import { ok } from '../action.ts';
import { isAddress, param } from '../params.ts';
import { refuse } from '../verification.ts';

export const verifyproxycontract: EtherscanAction = {
  module: 'contract',
  action: 'verifyproxycontract',
  summary: "Find a verified proxy's implementation (answers a GUID for checkproxyverification)",
  params: [
    { name: 'address', description: 'The verified proxy', required: true, example: 'contract' },
    { name: 'expectedimplementation', description: 'Ignored, as Blockscout ignores it' },
  ],
  async run(ctx, query) {
    const text = param(query, 'address');
    if (text === undefined) return refuse('address is required.');
    if (!isAddress(text)) return refuse('Invalid address hash');
    const outcome = await submitProxyCheck(ctx.chain, text.toLowerCase() as Address, ctx.onError === undefined ? {} : { onError: ctx.onError });
    if (outcome.kind === 'not-verified') return refuse('Smart-contract not found or is not verified');
    if (outcome.kind === 'unavailable') return refuse(outcome.message);
    return ok(outcome.job.uid);
  },
};
