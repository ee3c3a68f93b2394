/**
 * `verification_result` on `addresses:{h}` (reference blockscout-live.md §3, contracts §1.1):
 * how Blockscout reports an API v2 verification job's outcome, which its POST only answers as
 * "started". Success is `{"status":"success"}`; a failure `{"status":"error","errors":{field:[message]}}`,
 * the field as Blockscout picks it: `files` for the methods that upload files (standard input,
 * multi-part), `contract_source_code` for the others (flattened code).
 */
import type { ContractChange } from '../contracts/store.ts';
import type { JobInputKind } from '../contracts/records.ts';
import type { Address } from '../domain/records.ts';
import type { JsonObject } from '../json.ts';
import { TOPICS } from './topics.ts';

export interface VerificationResultEvent {
  readonly topic: string;
  readonly event: 'verification_result';
  readonly payload: JsonObject;
}

/** a job's settled state (lib/contracts/submit.ts onSettled) */
export interface SettledJob {
  readonly state: 'pass' | 'fail';
  /** the job's failure text (`Fail - Unable to verify: …`); null on a pass */
  readonly message: string | null;
}

export function verificationResult(address: Address, input: 'standard-json' | 'single-file', job: SettledJob): VerificationResultEvent {
  const topic = TOPICS.address(address);
  if (job.state === 'pass') return { topic, event: 'verification_result', payload: { status: 'success' } };
  const field = input === 'standard-json' ? 'files' : 'contract_source_code';
  const message = (job.message ?? 'There was an error validating your contract, please try again.').replace(/^Fail - /, '');
  return { topic, event: 'verification_result', payload: { status: 'error', errors: { [field]: [message] } } };
}

/** the kinds submitted as code in a form field (the rest upload files): their failure names `contract_source_code` */
const SOURCE_CODE_KINDS: ReadonlySet<JobInputKind> = new Set(['flattened-code', 'vyper-code', 'etherscan-single-file']);

/**
 * The `verification_result` of a contract store's change (lib/ports/contractStore.ts), or null:
 * a job settled (pass or fail) by any process sharing the store, but a proxy check's.
 */
export function verificationResultOfChange(change: ContractChange): VerificationResultEvent | null {
  if (change.kind !== 'job') return null;
  const { job } = change;
  if (job.state === 'pending' || job.inputKind === 'proxy-check') return null;
  const input = job.inputKind !== null && SOURCE_CODE_KINDS.has(job.inputKind) ? 'single-file' : 'standard-json';
  return verificationResult(job.address, input, { state: job.state, message: job.message });
}
