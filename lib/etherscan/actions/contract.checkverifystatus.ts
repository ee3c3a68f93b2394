/**
 * `contract/checkverifystatus` (GET or POST): `guid` → the state of a verification job, read
 * from the chain's contract store (any host sharing it answers). Always status "1" (reference
 * §2.2): `Pending in queue`, `Pass - Verified`, `Fail - Unable to verify` (with the failure's
 * text in `reason`, a key Blockscout does not send), `Unknown UID`.
 */
import { PROXY_CHECK_INPUT } from '../../contracts/proxyCheck.ts';
import { VERIFICATION_TEXT, verificationStatus } from '../../contracts/submit.ts';
import type { EtherscanAction } from '../action.ts';
import { ok } from '../action.ts';
import { param } from '../params.ts';
import { refuse } from '../verification.ts';

export const checkverifystatus: EtherscanAction = {
  module: 'contract',
  action: 'checkverifystatus',
  summary: 'The state of a verification submitted with verifysourcecode',
  params: [{ name: 'guid', description: 'The GUID verifysourcecode answered', required: true }],
  async run(ctx, query) {
    const guid = param(query, 'guid');
    if (guid === undefined) return refuse('guid is required.');
    const status = await verificationStatus(ctx.chain, guid);
    // a proxy check's GUID is checkproxyverification's
    if (status.kind === 'unknown' || status.job.inputHash === PROXY_CHECK_INPUT) return ok(VERIFICATION_TEXT.unknownUid);
    const { job } = status;
    if (job.state === 'pending') return ok(VERIFICATION_TEXT.pending);
    if (job.state === 'pass') return ok(VERIFICATION_TEXT.pass);
    return { status: 200, body: { status: '1', message: 'OK', result: VERIFICATION_TEXT.fail, reason: job.message ?? VERIFICATION_TEXT.fail } };
  },
};
