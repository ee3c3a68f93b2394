/**
 * The bodies the Sourcify API takes, as io-ts codecs: API v2's standard JSON and metadata forms,
 * and the legacy `POST /` (files by name, metadata.json among them). A body that fails its codec
 * is a 400 `invalid_parameter` naming the first field at fault, in Sourcify's words where it has
 * some (apiv2/middlewares.ts).
 */
import * as E from 'fp-ts/lib/Either.js';
import * as t from 'io-ts';

/** solc's (or vyper's) standard JSON input: every source with its content */
export const StdJsonInputCodec = t.intersection([
  t.type({ language: t.string, sources: t.record(t.string, t.type({ content: t.string })) }),
  t.partial({ settings: t.UnknownRecord }),
]);

/** `0x` and 64 hex digits */
const TxHash = t.refinement(t.string, (s) => /^0x[0-9a-fA-F]{64}$/.test(s), 'TxHash');
/** `0.8.26+commit.8a97fa7a`, `v0.8.26+commit.8a97fa7a`, `0.3.10` */
const CompilerVersion = t.refinement(t.string, (s) => /^v?\d+\.\d+\.\d+.*$/.test(s), 'CompilerVersion');
/** `path/File.sol:Name` */
const ContractIdentifier = t.refinement(t.string, (s) => s.lastIndexOf(':') > 0 && !s.endsWith(':'), 'ContractIdentifier');

export const VerifyBodyCodec = t.intersection([
  t.type({ stdJsonInput: StdJsonInputCodec, compilerVersion: CompilerVersion, contractIdentifier: ContractIdentifier }),
  t.partial({ creationTransactionHash: TxHash }),
]);
export type VerifyBody = t.TypeOf<typeof VerifyBodyCodec>;

/** Solidity's metadata.json: the parts a verification reads */
export const MetadataCodec = t.type({
  language: t.string,
  compiler: t.type({ version: t.string }),
  settings: t.intersection([t.type({ compilationTarget: t.record(t.string, t.string) }), t.UnknownRecord]),
  sources: t.record(t.string, t.UnknownRecord),
});
export type Metadata = t.TypeOf<typeof MetadataCodec>;

export const MetadataBodyCodec = t.intersection([
  t.type({ metadata: MetadataCodec, sources: t.record(t.string, t.string) }),
  t.partial({ creationTransactionHash: TxHash }),
]);
export type MetadataBody = t.TypeOf<typeof MetadataBodyCodec>;

/** the legacy verify: `chain` or `chainId`, files by name (each a string), the metadata's index when several */
export const LegacyVerifyBodyCodec = t.intersection([
  t.type({ address: t.string, files: t.record(t.string, t.string) }),
  t.partial({ chain: t.union([t.string, t.number]), chainId: t.union([t.string, t.number]), chosenContract: t.union([t.string, t.number]), creatorTxHash: t.string }),
]);
export type LegacyVerifyBody = t.TypeOf<typeof LegacyVerifyBodyCodec>;

/** what to say of a missing or bad field, by its name (else `<field> is invalid`) */
const MESSAGES: Readonly<Record<string, string>> = {
  stdJsonInput: 'Standard JSON input is required.',
  compilerVersion: 'Compiler version is required, e.g. 0.8.26+commit.8a97fa7a',
  contractIdentifier: 'Contract identifier is required, as path/to/File.sol:Name',
  creationTransactionHash: 'Creation transaction hash must be 0x and 64 hex digits',
  metadata: 'Metadata is required: the metadata.json object, with language, compiler.version, settings.compilationTarget and sources',
  sources: 'Sources are required: each path mapped to its content as a string',
  address: 'address is required',
  files: 'files are required: each file name mapped to its content as a string',
};

/** The body decoded, or the message naming its first bad field. */
export function decodeBody<A>(codec: t.Decoder<unknown, A>, value: unknown): { readonly value: A } | { readonly message: string } {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return { message: 'The body must be a JSON object' };
  const decoded = codec.decode(value);
  if (E.isRight(decoded)) return { value: decoded.right };
  const path = (decoded.left[0]?.context ?? []).map((c) => c.key).filter((k) => k !== '' && !/^\d+$/.test(k));
  const field = path[0] ?? '';
  return { message: path.length <= 1 ? (MESSAGES[field] ?? `${field} is invalid`) : `Invalid ${path.join('.')}` };
}
