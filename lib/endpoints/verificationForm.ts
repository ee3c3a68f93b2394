/**
 * What API v2's `POST /smart-contracts/{h}/verification/via/{method}` endpoints share: the
 * body's cap (Blockscout's 20 MB), its codec (an object with the method's required text fields;
 * a missing one is 422 `Missing field: <name>`), field readers for JSON values and form text
 * alike, the uploaded files (`files[0]`, `files[1]`, … as Blockscout reads them; a plain
 * `files` too), and the answers (Blockscout's, in its order):
 *
 * - 404 `{"message":"Address is not a smart-contract"}`; 404 with the reason when this chain
 *   verifies nothing (no verifier or no contract store, as Blockscout's 404 for a method whose
 *   service is off);
 * - 200 `{"message":"Already verified"}` (a full match; a partial one may be verified again);
 * - 200 `{"message":"JSON files not found"}`, `Error while reading JSON file`, `Libraries are
 *   not valid JSON map`;
 * - 503 `{"message":"The verification queue is full: try again later"}` (the verifier is busy);
 * - 200 `{"message":"Smart-contract verification started"}`: the job runs off the request path;
 *   its result is read from `/smart-contracts/{h}` (Blockscout sends it on the socket only).
 */
import * as E from 'fp-ts/lib/Either.js';
import * as t from 'io-ts';
import type { UploadedFile } from '../request.ts';
import type { ChainConfig } from '../chain-config.ts';
import type { LicenseType } from '../contracts/records.ts';
import type { Submission } from '../contracts/submit.ts';
import { checkSubmittable, licenseTypeOfField, submitVerification } from '../contracts/submit.ts';
import type { Address } from '../domain/records.ts';
import type { SettledJob } from '../live/verification.ts';
import { verificationResult } from '../live/verification.ts';
import type { EndpointDeps } from './endpoint.ts';
import type { ApiError } from '../errors.ts';
import { invalidParams } from '../errors.ts';

/** The methods served (Blockscout's names); Vyper ones are not: no Vyper compiler here. */
export const VERIFICATION_METHODS = ['flattened-code', 'standard-input', 'multi-part'] as const;

/** What Blockscout's Vyper methods answer here (404, as Blockscout's for a method whose service is off). */
export const VYPER_UNAVAILABLE = 'Vyper verification is not available: this server has no Vyper compiler (only Solidity is verified)';

/** Blockscout's body limit for verification (20 MB) */
export const VERIFICATION_MAX_BODY_BYTES = 20 * 1024 * 1024;

export const STARTED = 'Smart-contract verification started';

export type Fields = Readonly<Record<string, unknown>>;

/** An object whose `required` fields are text (JSON strings or form fields); the rest read by the handler. */
export function verificationBody(required: readonly string[]): t.Decoder<unknown, Fields> {
  const props: Record<string, t.StringC> = {};
  for (const name of required) props[name] = t.string;
  return t.intersection([t.type(props), t.UnknownRecord]);
}

/** What reading a body gave: a submission, one of Blockscout's 200 messages, or a 422. */
export type FormRead = { readonly submission: Submission } | { readonly message: string } | { readonly error: ApiError };

const bad = (name: string, detail: string): FormRead => ({ error: invalidParams([{ name, detail }]) });

/** A text field (a JSON number is its digits); blank: undefined. */
export function textField(f: Fields, name: string): string | undefined {
  const v = f[name];
  const s = typeof v === 'string' ? v : typeof v === 'number' ? String(v) : undefined;
  return s === undefined || s.trim() === '' ? undefined : s;
}

/** A boolean as JSON or form text (`true`/`false`/`1`/`0`); absent: `fallback`; anything else: null. */
export function boolField(f: Fields, name: string, fallback: boolean): boolean | null {
  const v = f[name];
  if (v === undefined || v === null || v === '') return fallback;
  if (typeof v === 'boolean') return v;
  const s = String(v).trim().toLowerCase();
  return s === 'true' || s === '1' ? true : s === 'false' || s === '0' ? false : null;
}

/** A non-negative integer as JSON or text; absent: `fallback`; anything else: null. */
export function intField(f: Fields, name: string, fallback: number): number | null {
  const v = f[name];
  if (v === undefined || v === null || v === '') return fallback;
  const n = typeof v === 'number' ? v : /^\s*\d+\s*$/.test(String(v)) ? Number(v) : NaN;
  return Number.isSafeInteger(n) && n >= 0 ? n : null;
}

/** `license_type`: a name or a number (absent: from the source's SPDX identifier); null when neither. */
export function licenseField(f: Fields): LicenseType | undefined | null {
  const v = textField(f, 'license_type');
  return v === undefined ? undefined : (licenseTypeOfField(v) ?? null);
}

/** Libraries as an object `{name: address}` (JSON) or its JSON text (forms); null when it is neither. */
export function librariesField(f: Fields): Readonly<Record<string, Address>> | null {
  let v = f['libraries'];
  if (v === undefined || v === null || v === '') return {};
  if (typeof v === 'string') {
    try {
      v = JSON.parse(v) as unknown;
    } catch {
      return null;
    }
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return null;
  const out: Record<string, Address> = {};
  for (const [name, address] of Object.entries(v)) {
    if (typeof address !== 'string' || !/^0x[0-9a-fA-F]{40}$/.test(address)) return null;
    out[name] = address.toLowerCase() as Address;
  }
  return out;
}

const isFile = (v: unknown): v is UploadedFile => typeof v === 'object' && v !== null && (v as UploadedFile).content instanceof Uint8Array;

/** The uploaded files: `files[0]`, `files[1]`, … in index order, then a plain `files` (one or repeated). */
export function uploadedFiles(f: Fields): readonly UploadedFile[] {
  const indexed = Object.keys(f)
    .map((k) => [k, /^files\[(\d+)\]$/.exec(k)?.[1]] as const)
    .filter((e): e is readonly [string, string] => e[1] !== undefined)
    .sort((a, b) => Number(a[1]) - Number(b[1]))
    .flatMap(([k]) => [f[k]].flat());
  const plain = f['files'] === undefined ? [] : [f['files']].flat();
  return [...indexed, ...plain].filter(isFile);
}

export const fileText = (file: UploadedFile): string => new TextDecoder().decode(file.content);

/** The common optional fields: constructor arguments (only when autodetection is off) and the license. */
export function commonFields(f: Fields): { readonly constructorArguments?: string; readonly licenseType?: LicenseType } | { readonly error: FormRead } {
  const autodetect = boolField(f, 'autodetect_constructor_args', true);
  if (autodetect === null) return { error: bad('autodetect_constructor_args', 'expected true or false') };
  const args = textField(f, 'constructor_args');
  if (args !== undefined && !/^(0x)?([0-9a-fA-F]{2})*$/.test(args.trim())) return { error: bad('constructor_args', 'expected ABI-encoded hex') };
  const license = licenseField(f);
  if (license === null) return { error: bad('license_type', 'expected a license name or number (see /smart-contracts/verification/config)') };
  return { ...(autodetect === false && args !== undefined ? { constructorArguments: args.trim() } : {}), ...(license !== undefined ? { licenseType: license } : {}) };
}

/**
 * Answer a verification request: the address checked first (as Blockscout, before the body),
 * then the body read by `read`, then the job created and started.
 */
export async function answerVerification(
  chain: ChainConfig,
  address: Address,
  read: () => FormRead,
  live: { readonly publish?: EndpointDeps['publish']; readonly onError?: (error: unknown) => void } = {},
): Promise<E.Either<ApiError, { readonly message: string }>> {
  const checked = await checkSubmittable(chain, address);
  if (checked.kind === 'unavailable') return E.left({ kind: 'NotFound', message: checked.message });
  if (checked.kind === 'not-a-contract') return E.left({ kind: 'NotFound', message: 'Address is not a smart-contract' });
  if (checked.kind === 'already-verified') return E.right({ message: 'Already verified' });
  const form = read();
  if ('error' in form) return E.left(form.error);
  if ('message' in form) return E.right({ message: form.message });
  const { publish, onError } = live;
  const kind = form.submission.input.kind;
  // the result goes to the subscribers of addresses:{h}, as Blockscout reports it (the POST only says "started")
  // a store with a feed tells every host's hub itself (lib/live/hub.ts): published here only without one
  const onSettled =
    publish === undefined || chain.contracts?.feed !== undefined
      ? undefined
      : (job: SettledJob): void => {
          const result = verificationResult(address, kind, job);
          publish(result.topic, result.event, result.payload);
        };
  const outcome = await submitVerification(chain, form.submission, { ...(onError === undefined ? {} : { onError }), ...(onSettled === undefined ? {} : { onSettled }) });
  switch (outcome.kind) {
    case 'queued':
      return E.right({ message: STARTED });
    case 'already-verified':
      return E.right({ message: 'Already verified' });
    case 'not-a-contract':
      return E.left({ kind: 'NotFound', message: 'Address is not a smart-contract' });
    case 'unavailable':
      return E.left({ kind: 'NotFound', message: outcome.message });
    case 'busy':
      return E.left({ kind: 'Unavailable', message: outcome.message });
  }
}

export { bad as badField };
