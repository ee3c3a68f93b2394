/**
 * `GET /v2/verify/{verificationId}`: a job's state, as Sourcify answers it (always 200):
 * `isJobCompleted`, the id, its start (and finish) time, the contract (its matches once the job
 * passed, null matches before, or after a failure) and, only for a failed job, Sourcify's error
 * object (`customCode` from the failure's text). Any job of the one verification flow answers,
 * whichever way it was submitted (Etherscan's GUIDs too), from the store of whichever served
 * chain holds it; a pending job is held up to STATUS_WAIT_MS for it to settle, as
 * `checkverifystatus` is. Unknown: 404 `job_not_found`.
 */
import type { ChainConfig } from '../chain-config.ts';
import { PROXY_CHECK_INPUT } from '../contracts/proxyCheck.ts';
import type { VerificationJob } from '../contracts/records.ts';
import { STATUS_WAIT_MS, verificationStatus } from '../contracts/submit.ts';
import { isCompilerUnavailable, UNABLE_TO_VERIFY } from '../contracts/verifier.ts';
import type { JsonObject } from '../json.ts';
import type { SourcifyAnswer, SourcifyContext } from './answer.ts';
import { contractObject, isoSeconds, v2Error } from './answer.ts';
import { lookupAddress } from './lookup.ts';

/** a job id: Sourcify's UUIDs, and the verification flow's own (hex) */
const JOB_ID = /^[0-9a-fA-F-]{8,100}$/;

export async function jobStatus(ctx: SourcifyContext, id: string): Promise<SourcifyAnswer> {
  if (!JOB_ID.test(id)) return v2Error(400, 'invalid_parameter', `Invalid verificationId: ${id}`);
  const found = await findJob(ctx, id.toLowerCase());
  if (found === null) return v2Error(404, 'job_not_found', `No verification job found for id ${id}`);
  let { job } = found;
  const { chainId, chain } = found;
  if (job.state === 'pending') {
    const held = await verificationStatus(chain, job.uid, { waitMs: STATUS_WAIT_MS });
    if (held.kind === 'job') job = held.job;
  }
  const completed = job.state !== 'pending';
  const contract = job.state === 'pass' ? await passed(chainId, chain, job) : contractObject(chainId, job.address, undefined);
  const body: JsonObject = {
    isJobCompleted: completed,
    verificationId: job.uid,
    jobStartTime: isoSeconds(job.createdAt),
    ...(completed ? { jobFinishTime: isoSeconds(job.updatedAt) } : {}),
    contract,
    ...(job.state === 'fail' ? { error: jobError(job.message) } : {}),
  };
  return { status: 200, body };
}

/** The job in the first served chain's store that has it (chains sharing a store ask it once). */
async function findJob(ctx: SourcifyContext, uid: string): Promise<{ readonly job: VerificationJob; readonly chainId: string; readonly chain: ChainConfig } | null> {
  const asked = new Set<object>();
  for (const [chainId, chain] of ctx.chains) {
    const store = chain.contracts;
    if (store === undefined || asked.has(store)) continue;
    asked.add(store);
    const job = await store.getJob(uid);
    // a proxy check's GUID is checkproxyverification's
    if (job !== null && job.inputHash !== PROXY_CHECK_INPUT && job.inputKind !== 'proxy-check') return { job, chainId, chain };
  }
  return null;
}

async function passed(chainId: string, chain: ChainConfig, job: VerificationJob): Promise<JsonObject> {
  const { contract } = await lookupAddress(chain, job.address);
  const base = contractObject(chainId, job.address, contract);
  return contract === undefined ? base : { ...base, verifiedAt: isoSeconds(contract.verifiedAt), matchId: String(contract.id) };
}

/** Sourcify's codes for the failures the verification flow records as text */
const CODES: readonly (readonly [RegExp, string])[] = [
  [/not a smart contract|not deployed/i, 'contract_not_deployed'],
  [/already verified/i, 'already_verified'],
  [/compiler v\S+ is not available|unknown compiler|compiler version/i, 'unsupported_compiler_version'],
  [/not found in the compil|no contract .* in the compil|contract .* not found/i, 'contract_not_found_in_compiler_output'],
  [/compil(?:er|ation) error|error: /i, 'compiler_error'],
  [/queue is full|busy/i, 'too_many_requests'],
];

/** A failed job's error: its text without the Etherscan prefix, and a code for it. */
export function jobError(message: string | null): JsonObject {
  const text = (message ?? UNABLE_TO_VERIFY).replace(/^Fail - Unable to verify(?::\s*)?/, '') || 'The deployed and recompiled bytecode don\'t match.';
  const code = isCompilerUnavailable(text) ? 'unsupported_compiler_version' : (CODES.find(([pattern]) => pattern.test(text))?.[1] ?? 'no_match');
  return { customCode: code, message: text, errorId: crypto.randomUUID() };
}
