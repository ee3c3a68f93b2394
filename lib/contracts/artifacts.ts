/**
 * Build artifacts as candidates for zero-step verification: a build-info file holds the exact
 * standard-JSON input, the solc long version and the compiler's output (runtime code with its
 * immutable and link references, creation code), so a deployed contract is matched against it
 * without compiling. Pure: the host reads the files and hands their parsed JSON here.
 *
 * The shapes read:
 * - Foundry (`out/build-info/<id>.json`, written in full with `build_info = true` or
 *   `forge build --build-info`): `_format: "ethers-rs-sol-build-info-1"`, `inputVersionLong`
 *   (older: `solcLongVersion`), `input` (standard JSON plus `version`, paths…), `output` (solc's,
 *   bytecode objects `0x`-prefixed), `source_id_to_path`; without `build_info` only `id`,
 *   `source_id_to_path` and `language` are written (then nothing can be matched: said so).
 * - Hardhat 2 (`artifacts/build-info/<id>.json`): `_format: "hh-sol-build-info-1"`,
 *   `solcLongVersion`, `input`, `output` (solc's, verbatim).
 * - Hardhat 3 (`artifacts/build-info/<id>.json` + `<id>.output.json`): `_format:
 *   "hh3-sol-build-info-1"` with `solcLongVersion` and `input`; the output file
 *   `_format: "hh3-sol-build-info-output-1"` with `output`.
 */
import type { Hex } from '../domain/records.ts';
import type { JsonObject, JsonValue } from '../json.ts';
import { parseCompilerVersion } from './verifier.ts';

export interface ArtifactOffset {
  readonly start: number;
  readonly length: number;
}
/** solc's linkReferences: file → library → offsets (bytes) */
export type ArtifactLinkReferences = Readonly<Record<string, Readonly<Record<string, readonly ArtifactOffset[]>>>>;
/** solc's immutableReferences: AST id → offsets (bytes) */
export type ArtifactImmutableReferences = Readonly<Record<string, readonly ArtifactOffset[]>>;

export type BuildInfoFormat = 'foundry' | 'hardhat2' | 'hardhat3';

export const BUILD_INFO_FORMATS: Readonly<Record<string, BuildInfoFormat>> = {
  'ethers-rs-sol-build-info-1': 'foundry',
  'hh-sol-build-info-1': 'hardhat2',
  'hh3-sol-build-info-1': 'hardhat3',
};
/** the `_format` of Hardhat 3's separate output file */
export const HARDHAT3_OUTPUT_FORMAT = 'hh3-sol-build-info-output-1';

/** One compiled contract of a build, as the matcher and the contract store need it. */
export interface ArtifactContract {
  readonly name: string;
  /** its source file: a key of `sources` */
  readonly file: string;
  readonly abi: readonly JsonValue[];
  /** `v0.8.26+commit.8a97fa7a` */
  readonly compilerVersion: string;
  /** the standard-JSON `settings` the build used */
  readonly settings: JsonObject;
  /** the files the contract was compiled from (its metadata's sources when known, else the build's), path → content */
  readonly sources: Readonly<Record<string, string>>;
  /** creation code, lower-case hex without 0x, library placeholders unlinked */
  readonly creation: string;
  readonly creationLinks: ArtifactLinkReferences;
  /** runtime code, lower-case hex without 0x, immutables zeroed, placeholders unlinked */
  readonly runtime: string;
  readonly runtimeLinks: ArtifactLinkReferences;
  readonly immutables: ArtifactImmutableReferences;
  /** embedded: shipped inside a program (the demo's own contracts) */
  readonly format: BuildInfoFormat | 'embedded';
  /** the build's id */
  readonly build: string;
}

export interface BuildInfoContracts {
  readonly format: BuildInfoFormat;
  readonly id: string;
  readonly contracts: readonly ArtifactContract[];
}

export class ArtifactsError extends Error {
  override readonly name = 'ArtifactsError';
}

type Rec = { readonly [key: string]: unknown };
const isRecord = (v: unknown): v is Rec => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const hexOf = (v: unknown): string => {
  const s = str(v) ?? '';
  return (s.startsWith('0x') || s.startsWith('0X') ? s.slice(2) : s).toLowerCase();
};

function offsets(v: unknown): readonly ArtifactOffset[] {
  if (!Array.isArray(v)) return [];
  return v.flatMap((o: unknown) => (isRecord(o) && typeof o['start'] === 'number' && typeof o['length'] === 'number' ? [{ start: o['start'], length: o['length'] }] : []));
}
function links(v: unknown): ArtifactLinkReferences {
  if (!isRecord(v)) return {};
  const out: Record<string, Record<string, readonly ArtifactOffset[]>> = {};
  for (const [file, libs] of Object.entries(v)) {
    if (!isRecord(libs)) continue;
    out[file] = Object.fromEntries(Object.entries(libs).map(([lib, o]) => [lib, offsets(o)]));
  }
  return out;
}
function immutables(v: unknown): ArtifactImmutableReferences {
  if (!isRecord(v)) return {};
  return Object.fromEntries(Object.entries(v).map(([id, o]) => [id, offsets(o)]));
}

/** the solc long version as `v0.8.26+commit.8a97fa7a`, or null */
function longVersion(v: unknown): string | null {
  const s = str(v);
  const parsed = s === undefined ? null : parseCompilerVersion(s);
  return parsed?.commit === undefined ? null : `v${parsed.semver}+commit.${parsed.commit}`;
}

/** a contract's metadata (solc gives it as JSON text; Foundry may keep it parsed) */
function metadataOf(v: unknown): Rec | null {
  if (isRecord(v)) return v;
  if (typeof v !== 'string' || v === '') return null;
  try {
    const parsed: unknown = JSON.parse(v);
    return isRecord(parsed) ? parsed : null;
  } catch {
    return null;
  }
}

/** The output file's key as a key of the input's sources (Foundry may write the output's keys as absolute paths). */
function inputFile(file: string, sources: Readonly<Record<string, string>>): string | null {
  if (Object.prototype.hasOwnProperty.call(sources, file)) return file;
  const found = Object.keys(sources).filter((k) => file.endsWith(`/${k}`));
  return found.length === 1 ? (found[0] ?? null) : null;
}

/** The files a contract was compiled from, when its metadata names them all (else null: the build's). */
function ownSources(metadata: Rec | null, sources: Readonly<Record<string, string>>): Record<string, string> | null {
  const named = metadata?.['sources'];
  const used = isRecord(named) ? Object.keys(named) : [];
  if (used.length === 0) return null;
  const out: Record<string, string> = {};
  for (const f of used) {
    const k = inputFile(f, sources);
    if (k === null) return null;
    out[k] = sources[k] ?? '';
  }
  return out;
}

/**
 * The contracts of one build-info file (`info`, parsed), with Hardhat 3's output file (`output`,
 * parsed) when the format keeps it apart. Contracts without runtime code (interfaces, abstract
 * contracts) are left out. Throws ArtifactsError naming what is missing.
 */
export function contractsOfBuildInfo(info: unknown, output?: unknown): BuildInfoContracts {
  if (!isRecord(info)) throw new ArtifactsError('not a build-info object');
  const formatName = str(info['_format']);
  const id = str(info['id']) ?? '';
  if (formatName === undefined) {
    if ('source_id_to_path' in info) {
      throw new ArtifactsError(`Foundry build info ${id} holds no compiler input and output: build with build_info = true in foundry.toml, or forge build --build-info`);
    }
    throw new ArtifactsError('no "_format": not a Foundry or Hardhat build-info file');
  }
  const format = BUILD_INFO_FORMATS[formatName];
  if (format === undefined) throw new ArtifactsError(`unknown build-info format ${JSON.stringify(formatName)}`);
  const input = info['input'];
  if (!isRecord(input) || !isRecord(input['sources'])) throw new ArtifactsError(`build info ${id}: no standard-JSON input with sources`);
  const language = str(input['language']) ?? 'Solidity';
  if (language !== 'Solidity') return { format, id, contracts: [] };
  let out: unknown = info['output'];
  if (format === 'hardhat3') {
    if (!isRecord(output)) throw new ArtifactsError(`Hardhat 3 build info ${id}: its output file (${id}.output.json) is missing`);
    if (str(output['_format']) !== HARDHAT3_OUTPUT_FORMAT) throw new ArtifactsError(`Hardhat 3 build info ${id}: its output file is not ${HARDHAT3_OUTPUT_FORMAT}`);
    out = output['output'];
  }
  if (!isRecord(out)) throw new ArtifactsError(`build info ${id}: no compiler output`);

  const sources: Record<string, string> = {};
  for (const [file, s] of Object.entries(input['sources'])) {
    if (isRecord(s) && typeof s['content'] === 'string') sources[file] = s['content'];
  }
  const settings: JsonObject = isRecord(input['settings']) ? (input['settings'] as JsonObject) : {};
  const buildVersion = longVersion(info['solcLongVersion']) ?? longVersion(info['inputVersionLong']) ?? longVersion(input['version']);

  const contracts: ArtifactContract[] = [];
  const byFile = isRecord(out['contracts']) ? out['contracts'] : {};
  for (const [outFile, byName] of Object.entries(byFile)) {
    if (!isRecord(byName)) continue;
    const file = inputFile(outFile, sources);
    if (file === null) continue;
    for (const [name, c] of Object.entries(byName)) {
      if (!isRecord(c) || !isRecord(c['evm'])) continue;
      const evm = c['evm'];
      const bytecode = isRecord(evm['bytecode']) ? evm['bytecode'] : {};
      const deployed = isRecord(evm['deployedBytecode']) ? evm['deployedBytecode'] : {};
      const runtime = hexOf(deployed['object']);
      if (runtime === '') continue;
      const metadata = metadataOf(c['metadata']);
      const compilerOf = metadata?.['compiler'];
      const compiler = isRecord(compilerOf) ? compilerOf : {};
      const compilerVersion = buildVersion ?? longVersion(compiler['version']);
      if (compilerVersion === null) throw new ArtifactsError(`build info ${id}: no solc long version (e.g. 0.8.26+commit.8a97fa7a) in it`);
      const own = ownSources(metadata, sources);
      contracts.push({
        name,
        file,
        abi: Array.isArray(c['abi']) ? (c['abi'] as readonly JsonValue[]) : [],
        compilerVersion,
        settings,
        sources: own !== null && Object.prototype.hasOwnProperty.call(own, file) ? own : sources,
        creation: hexOf(bytecode['object']),
        creationLinks: links(bytecode['linkReferences']),
        runtime,
        runtimeLinks: links(deployed['linkReferences']),
        immutables: immutables(deployed['immutableReferences']),
        format,
        build: id,
      });
    }
  }
  return { format, id, contracts };
}

/** Candidates for a deployed code: every match (full or partial) has the compiled code's length. */
export interface ArtifactSet {
  readonly contracts: readonly ArtifactContract[];
  /** the contracts whose runtime code is as long as `deployed` */
  candidates(deployed: Hex): readonly ArtifactContract[];
}

/** The contracts of several builds, the same contract (file, name, code, compiler) once, keyed by runtime length. */
export function artifactSet(contracts: readonly ArtifactContract[]): ArtifactSet {
  const seen = new Set<string>();
  const kept: ArtifactContract[] = [];
  const byLength = new Map<number, ArtifactContract[]>();
  for (const c of contracts) {
    const key = `${c.file}:${c.name}:${c.compilerVersion}:${c.runtime}:${c.creation}`;
    if (seen.has(key)) continue;
    seen.add(key);
    kept.push(c);
    const bucket = byLength.get(c.runtime.length);
    if (bucket === undefined) byLength.set(c.runtime.length, [c]);
    else bucket.push(c);
  }
  return {
    contracts: kept,
    candidates: (deployed) => byLength.get(deployed.length - (deployed.startsWith('0x') ? 2 : 0)) ?? [],
  };
}
