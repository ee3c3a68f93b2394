/**
 * A Sourcify submission (API v2's standard JSON and metadata forms) as a job of the one
 * verification flow (lib/contracts/submit.ts): 202 `{verificationId}` for a job (the same address
 * and input submitted again answer their job), 409 `already_verified` for a fully verified
 * contract. An address without a contract becomes a job that failed as `contract_not_deployed`,
 * as Sourcify reports it (its POST answers 202 before it reads the chain).
 */
import type { ChainConfig } from '../chain-config.ts';
import type { Submission } from '../contracts/submit.ts';
import { newJobUid, submissionHash, submitVerification, VERIFICATION_TEXT } from '../contracts/submit.ts';
import { UNABLE_TO_VERIFY } from '../contracts/verifier.ts';
import { verificationResult } from '../live/verification.ts';
import type { SourcifyAnswer, SourcifyContext } from './answer.ts';
import { checksum, v2Error } from './answer.ts';

export async function submitJob(ctx: SourcifyContext, chainId: string, chain: ChainConfig, submission: Submission): Promise<SourcifyAnswer> {
  const { publish, onError } = ctx;
  // a store with a feed tells every host's hub itself (lib/live/hub.ts): published here only without one
  const onSettled =
    publish === undefined || chain.contracts?.feed !== undefined
      ? undefined
      : (job: { readonly state: 'pass' | 'fail'; readonly message: string | null }): void => {
          const result = verificationResult(submission.address, submission.input.kind, job);
          publish(chainId, result.topic, result.event, result.payload);
        };
  const outcome = await submitVerification(chain, submission, { ...(onError === undefined ? {} : { onError }), ...(onSettled === undefined ? {} : { onSettled }) });
  switch (outcome.kind) {
    case 'queued':
      return { status: 202, body: { verificationId: outcome.job.uid } };
    case 'already-verified':
      return v2Error(
        409,
        'already_verified',
        `Contract ${checksum(submission.address)} on chain ${chainId} is already verified with runtimeMatch and creationMatch both being exact matches.`,
      );
    case 'not-a-contract':
      return notDeployed(ctx, chain, submission);
    case 'unavailable':
      return v2Error(503, 'verification_unavailable', outcome.message);
    case 'busy':
      return v2Error(429, 'too_many_requests', outcome.message);
  }
}

/** A job that failed at once: no contract at the address. */
async function notDeployed(ctx: SourcifyContext, chain: ChainConfig, submission: Submission): Promise<SourcifyAnswer> {
  const store = chain.contracts;
  if (store === undefined) return v2Error(503, 'verification_unavailable', VERIFICATION_TEXT.unavailable);
  const now = (ctx.now ?? Date.now)();
  const address = submission.address;
  const { job } = await store.createJob({ uid: newJobUid(address, now), address, inputHash: submissionHash(submission), ...(submission.inputKind === undefined ? {} : { inputKind: submission.inputKind }), now });
  await store.updateJob(job.uid, { state: 'fail', message: `${UNABLE_TO_VERIFY}: ${VERIFICATION_TEXT.notAContract}`, now });
  return { status: 202, body: { verificationId: job.uid } };
}
