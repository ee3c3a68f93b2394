/**
 * `contract/checkproxyverification`: `guid` of `verifyproxycontract` → Blockscout's texts:
 * `Verification in progress`; `The proxy's (<proxy>) implementation contract is found at
 * <implementation> and is successfully updated.`; not found: status "0", `NOTOK`, `A
 * corresponding implementation contract was unfortunately not detected for the proxy
 * address.`; `Unknown UID` (status "1").
 */
import { proxyCheckStatus } from '../../contracts/proxyCheck.ts';
import { VERIFICATION_TEXT } from '../../contracts/submit.ts';
import type { EtherscanAction } from '../action.ts';
import { fail, ok } from '../action.ts';
import { param } from '../params.ts';
import { refuse } from '../verification.ts';

export const NOT_DETECTED = 'A corresponding implementation contract was unfortunately not detected for the proxy address.';

export const checkproxyverification: EtherscanAction = {
  module: 'contract',
  action: 'checkproxyverification',
  summary: 'The outcome of verifyproxycontract',
  params: [{ name: 'guid', description: 'The GUID verifyproxycontract answered', required: true }],
  async run(ctx, query) {
    const guid = param(query, 'guid');
    if (guid === undefined) return refuse('guid is required.');
    const job = await proxyCheckStatus(ctx.chain, guid);
    if (job === null) return ok(VERIFICATION_TEXT.unknownUid);
    if (job.state === 'pending') return ok('Verification in progress');
    if (job.state === 'fail' || job.message === null) return fail('NOTOK', NOT_DETECTED);
    return ok(`The proxy's (${job.address}) implementation contract is found at ${job.message} and is successfully updated.`);
  },
};
