/**
 * Submitting a contract for verification, and reading a job's state: the one flow behind
 * Etherscan's `verifysourcecode` / `checkverifystatus` and API v2's `verification/via/...`.
 *
 * A submission is checked at once (a contract at the address, not verified already), becomes a
 * job in the chain's contract store (so any host sharing the store answers `checkverifystatus`)
 * and runs off the request path through the chain's ContractVerifier (its pool is bounded: a
 * submission while its queue is full is refused at once as busy; a job the queue refuses later
 * fails as busy; submitting again re-runs either). A match is saved through
 * saveVerifiedContract; a failure is recorded with its reason.
 *
 * The same address and input submitted while its job is pending (or after it passed) answer that
 * job and run nothing; after a failure, or once a pending job is stale (its host gone), it runs
 * again.
 */
import { keccak256, stringToHex } from 'viem';
import type { ChainConfig } from '../chain-config.ts';
import type { Address, ContractCodeRecord, Hash, Hex } from '../domain/records.ts';
import type { JsonObject, JsonValue } from '../json.ts';
import { licenseTypeOf } from './license.ts';
import { codeHashes } from './lookup.ts';
import type { CodeFormat, JobInputKind, LicenseType, VerificationJob as StoredJob } from './records.ts';
import { LICENSE_TYPES } from './records.ts';
import { saveVerifiedContract } from './save.ts';
import type { ContractStore } from './store.ts';
import type { ContractVerifier, VerificationJob, VerificationOutcome, VerifiedContract as Compiled } from './verifier.ts';
import { UNABLE_TO_VERIFY } from './verifier.ts';
import { hash } from '../domain/hex.ts';

/** The answers clients key on (reference §2.1–2.2; forge and hardhat-verify match these texts). */
export const VERIFICATION_TEXT = {
  notAContract: 'The address is not a smart contract',
  alreadyVerified: 'Smart-contract already verified.',
  pending: 'Pending in queue',
  pass: 'Pass - Verified',
  fail: UNABLE_TO_VERIFY,
  unknownUid: 'Unknown UID',
  unavailable: 'Contract verification is not available on this server (no compiler: install the optional dependency solc)',
  busy: 'The verification queue is full: try again later',
} as const;

/** A pending job not settled within this long is taken as lost with its host, and run again when submitted again. */
export const STALE_JOB_MS = 15 * 60_000;

/** What a client submits: the sources and settings, for one address. */
export interface Submission {
  readonly address: Address;
  readonly language: VerificationJob['language'];
  readonly input: VerificationJob['input'];
  readonly compilerVersion: string;
  /** `path/File.sol:Name` or `Name` */
  readonly contractName: string;
  readonly libraries?: Readonly<Record<string, Address>>;
  /** ABI-encoded hex (with or without 0x); absent or empty: recovered from the creation input */
  readonly constructorArguments?: string;
  /** absent: from the main file's SPDX identifier */
  readonly licenseType?: LicenseType;
  /** what it was submitted as, recorded with its job; absent: API v2's method of its input (standard-input, flattened-code) */
  readonly inputKind?: JobInputKind;
}

export type SubmitOutcome =
  /** a job to poll (`created`: a new one; else the one this address and input already had) */
  | { readonly kind: 'queued'; readonly job: StoredJob; readonly created: boolean }
  | { readonly kind: 'not-a-contract' }
  | { readonly kind: 'already-verified' }
  /** no contract store or no verifier on this chain */
  | { readonly kind: 'unavailable'; readonly message: string }
  /** the verifier's queue is full: nothing was recorded, submit again later */
  | { readonly kind: 'busy'; readonly message: string };

export interface SubmitOptions {
  /** default Date.now */
  readonly now?: () => number;
  /** told about a job that failed to run or to be recorded (the store failing) */
  readonly onError?: (error: unknown) => void;
  /** called when the job has settled (tests, the live socket) */
  readonly onSettled?: (job: { readonly uid: string; readonly state: 'pass' | 'fail'; readonly message: string | null }) => void;
}

/** What `checkverifystatus` answers for a uid: the job's state, or unknown. */
export type JobStatus = { readonly kind: 'unknown' } | { readonly kind: 'job'; readonly job: StoredJob };

/** A form field as a license type (not an SPDX id: license.ts licenseTypeOf): a number 1–14 (Etherscan's and Blockscout's list) or a name; undefined when neither. */
export function licenseTypeOfField(value: string): LicenseType | undefined {
  const v = value.trim().toLowerCase();
  for (const [name, n] of Object.entries(LICENSE_TYPES)) if (v === name || v === String(n)) return name as LicenseType;
  return undefined;
}

/** A hash of what was submitted: the same input for the same address runs once. */
export function submissionHash(s: Submission): Hash {
  const libraries = Object.entries(s.libraries ?? {})
    .map(([k, v]) => [k, v.toLowerCase()])
    .sort(([a], [b]) => ((a ?? '') < (b ?? '') ? -1 : 1));
  const args = (s.constructorArguments ?? '').replace(/^0x/i, '').toLowerCase();
  return hash(keccak256(stringToHex(JSON.stringify([s.language, s.input, s.compilerVersion.trim(), s.contractName.trim(), libraries, args, s.licenseType ?? null]))));
}

/** A job's uid, as Blockscout's: the address's 40 hex digits, then the time in hex (here in ms, and a random tail). */
export function newJobUid(address: Address, now: number): string {
  const tail = Math.floor(Math.random() * 0xffffffff).toString(16).padStart(8, '0');
  return `${address.slice(2).toLowerCase()}${now.toString(16)}${tail}`;
}

const unavailable = (chain: Pick<ChainConfig, 'contracts' | 'verifier'>): string | undefined =>
  chain.contracts === undefined ? 'Contract verification is not available on this server (no contract store)' : chain.verifier === undefined ? VERIFICATION_TEXT.unavailable : undefined;

type Refusal = Exclude<SubmitOutcome, { readonly kind: 'queued' }>;
type Submittable = { readonly kind: 'ok'; readonly code: { readonly hash: Hash; readonly record: ContractCodeRecord } };

/**
 * Whether an address may be submitted, as Blockscout checks before it reads a submission:
 * verification available, a contract there, not fully verified yet (a partial match may be
 * verified again).
 */
export async function checkSubmittable(chain: ChainConfig, address: Address): Promise<Refusal | Submittable> {
  const why = unavailable(chain);
  if (why !== undefined) return { kind: 'unavailable', message: why };
  const a = address.toLowerCase() as Address;
  const code = (await codeHashes(chain.store, [a])).get(a);
  if (code === undefined) return { kind: 'not-a-contract' };
  const [stored] = await (chain.contracts as ContractStore).getVerified([code.hash]);
  if (stored !== undefined && stored.match === 'full') return { kind: 'already-verified' };
  return { kind: 'ok', code };
}

/**
 * Check a submission, create (or find) its job and run it off the request path. Resolves once
 * the job is recorded; the verification goes on after.
 */
export async function submitVerification(chain: ChainConfig, submission: Submission, options: SubmitOptions = {}): Promise<SubmitOutcome> {
  const address = submission.address.toLowerCase() as Address;
  const checked = await checkSubmittable(chain, address);
  if (checked.kind !== 'ok') return checked;
  const { code } = checked;
  const store = chain.contracts as ContractStore;
  const verifier = chain.verifier as ContractVerifier;
  const now = options.now ?? Date.now;

  const at = now();
  const inputHash = submissionHash(submission);
  const inputKind = submission.inputKind ?? (submission.input.kind === 'standard-json' ? 'standard-input' : 'flattened-code');
  const created = await store.createJob({ uid: newJobUid(address, at), address, inputHash, inputKind, now: at });
  let job = created.job;
  let run = created.created;
  if (!created.created && (job.state === 'fail' || (job.state === 'pending' && at - job.updatedAt > STALE_JOB_MS))) {
    // a failure (a busy queue, a compiler since installed) or a lost host: this submission runs it again
    await store.updateJob(job.uid, { state: 'pending', message: null, now: at });
    job = { ...job, state: 'pending', message: null, updatedAt: at };
    run = true;
  }
  if (run && verifier.busy?.() === true) {
    // refused at once rather than queued to fail: a job created above is settled as such (submitting again re-runs it)
    await store.updateJob(job.uid, { state: 'fail', message: `${UNABLE_TO_VERIFY}: ${VERIFICATION_TEXT.busy}`, now: now() });
    return { kind: 'busy', message: VERIFICATION_TEXT.busy };
  }
  if (run) {
    const task: VerificationJob = {
      language: submission.language,
      input: submission.input,
      compilerVersion: submission.compilerVersion,
      contractName: submission.contractName,
      deployedCode: code.record.deployedBytecode,
      ...(code.record.creationBytecode !== null ? { creationInput: code.record.creationBytecode } : {}),
      ...(submission.libraries !== undefined ? { libraries: submission.libraries } : {}),
      ...(submission.constructorArguments !== undefined && submission.constructorArguments.replace(/^0x/i, '') !== ''
        ? { constructorArguments: submission.constructorArguments }
        : {}),
    };
    void runJob(chain, store, verifier, job.uid, task, submission, code.record.deployedBytecode, now, options);
  }
  return { kind: 'queued', job, created: run };
}

/**
 * How long `checkverifystatus` holds its answer while the job is pending, for it to settle.
 * Blockscout answers at once; forge asks right after submitting, then only every 15 s, so a
 * compile of a few seconds would cost it 15 s per contract. A job settling within this answers
 * final at the first ask; a longer one answers `Pending in queue` as before.
 */
export const STATUS_WAIT_MS = 10_000;
/** how often a held `checkverifystatus` reads the job again (from the store: the job may run on another host) */
export const STATUS_POLL_MS = 100;

export interface StatusOptions {
  /** while the job is pending, read it again until it settles or this long has passed; default 0 (answer at once) */
  readonly waitMs?: number;
  /** default STATUS_POLL_MS */
  readonly pollMs?: number;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** A job's state, for `checkverifystatus`: read from the store, and with `waitMs`, read again while it is pending. */
export async function verificationStatus(chain: Pick<ChainConfig, 'contracts'>, uid: string, options: StatusOptions = {}): Promise<JobStatus> {
  const store = chain.contracts;
  const id = uid.trim().toLowerCase();
  if (store === undefined || id === '') return { kind: 'unknown' };
  const deadline = Date.now() + (options.waitMs ?? 0);
  let job = await store.getJob(id);
  while (job !== null && job.state === 'pending' && Date.now() < deadline) {
    await sleep(Math.min(options.pollMs ?? STATUS_POLL_MS, deadline - Date.now()));
    job = await store.getJob(id);
  }
  return job === null ? { kind: 'unknown' } : { kind: 'job', job };
}

async function runJob(
  chain: ChainConfig,
  store: ContractStore,
  verifier: ContractVerifier,
  uid: string,
  task: VerificationJob,
  submission: Submission,
  deployedBytecode: Hex,
  now: () => number,
  options: SubmitOptions,
): Promise<void> {
  let settled: { readonly state: 'pass' | 'fail'; readonly message: string | null };
  try {
    const outcome: VerificationOutcome = await verifier.verify(task);
    if (outcome.status === 'verified') {
      await saveVerifiedContract(chain, savedOf(outcome, submission, deployedBytecode, now()));
      settled = { state: 'pass', message: null };
    } else {
      settled = { state: 'fail', message: failureText(outcome.message) };
    }
  } catch (error) {
    options.onError?.(error);
    settled = { state: 'fail', message: failureText(`Unable to verify: unknown error (${error instanceof Error ? error.message : String(error)})`) };
  }
  try {
    await store.updateJob(uid, { ...settled, now: now() });
    options.onSettled?.({ uid, ...settled });
  } catch (error) {
    options.onError?.(error);
  }
}

/** `Fail - Unable to verify: <why>` (the verifier's message may already start so). */
function failureText(message: string): string {
  return message.startsWith(UNABLE_TO_VERIFY) ? message : `${UNABLE_TO_VERIFY}: ${message}`;
}

const FORMATS: Readonly<Record<VerificationJob['input']['kind'], CodeFormat>> = { 'standard-json': 'standard-json', 'single-file': 'single-file' };

function savedOf(c: Compiled, s: Submission, deployedBytecode: Hex, verifiedAt: number): Parameters<typeof saveVerifiedContract>[1] {
  const codeFormat = FORMATS[s.input.kind];
  return {
    deployedBytecode,
    address: s.address,
    name: c.name,
    language: s.language,
    compilerVersion: c.compilerVersion,
    optimizationEnabled: c.optimization,
    optimizationRuns: c.optimizationRuns,
    evmVersion: c.evmVersion,
    // Blockscout keeps the settings of standard-JSON submissions only
    compilerSettings: codeFormat === 'standard-json' ? (c.compilerSettings as JsonObject) : null,
    codeFormat,
    filePath: c.file,
    sources: c.sources,
    abi: c.abi as unknown as readonly JsonValue[],
    match: c.match,
    creationMatch: c.creationMatch,
    hasImmutables: Object.keys(c.immutables).length > 0,
    libraries: c.libraries,
    constructorArguments: c.constructorArguments === '' ? null : (`0x${c.constructorArguments}` as Hex),
    licenseType: s.licenseType ?? licenseTypeOf(c.license),
    verifiedAt,
  };
}
