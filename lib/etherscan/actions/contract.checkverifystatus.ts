/**
 * `contract/checkverifystatus` (GET or POST): `guid` → the state of a verification job, read
 * from the chain's contract store (any host sharing it answers). Always status "1" (reference
 * §2.2): `Pending in queue`, `Pass - Verified`, `Fail - Unable to verify` (with the failure's
 * text in `reason`, a key Blockscout does not send; when no compiler was at hand for the version,
 * the result is that text, `Fail - Unable to verify: Compiler v… is not available (…): <what to
 * do>`, as forge shows only the result), `Unknown UID`. A pending job is waited for
 * up to STATUS_WAIT_MS (10 s) before `Pending in queue` is answered: Blockscout answers at once,
 * but forge asks right after submitting and then only every 15 s.
 */
import { PROXY_CHECK_INPUT } from '../../contracts/proxyCheck.ts';
import { STATUS_WAIT_MS, VERIFICATION_TEXT, verificationStatus } from '../../contracts/submit.ts';
import type { EtherscanAction } from '../action.ts';
import { ok } from '../action.ts';
import { param } from '../params.ts';
import { isCompilerUnavailable } from '../../contracts/verifier.ts';
import { refuse } from '../verification.ts';

export const checkverifystatus: EtherscanAction = {
  module: 'contract',
  action: 'checkverifystatus',
  summary: 'The state of a verification submitted with verifysourcecode',
  params: [{ name: 'guid', description: 'The GUID verifysourcecode answered', required: true }],
  async run(ctx, query) {
    const guid = param(query, 'guid');
    if (guid === undefined) return refuse('guid is required.');
    const first = await verificationStatus(ctx.chain, guid);
    // a proxy check's GUID is checkproxyverification's
    if (first.kind === 'unknown' || first.job.inputHash === PROXY_CHECK_INPUT) return ok(VERIFICATION_TEXT.unknownUid);
    // a pending job: held a while for it to settle (forge asks again only after 15 s)
    const status = first.job.state === 'pending' ? await verificationStatus(ctx.chain, guid, { waitMs: STATUS_WAIT_MS }) : first;
    if (status.kind === 'unknown') return ok(VERIFICATION_TEXT.unknownUid);
    const { job } = status;
    if (job.state === 'pending') return ok(VERIFICATION_TEXT.pending);
    if (job.state === 'pass') return ok(VERIFICATION_TEXT.pass);
    const reason = job.message ?? VERIFICATION_TEXT.fail;
    // no compiler at hand: the text itself is the result (forge shows only `result`), as Etherscan's `Fail - Unable to verify. <why>`
    const result = isCompilerUnavailable(reason) ? reason : VERIFICATION_TEXT.fail;
    return { status: 200, body: { status: '1', message: 'OK', result, reason } };
  },
};
