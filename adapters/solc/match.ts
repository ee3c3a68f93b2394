/**
 * Compare a compiled contract with the chain's code as Sourcify does: library placeholders
 * linked (given, or read off the deployed code), immutables masked by `immutableReferences`,
 * a library's call-protection address masked, the CBOR auxdata split off
 * (@ethereum-sourcify/bytecode-utils) → full (identical) or partial (only the metadata differs)
 * match; the constructor arguments are the creation input after the compiled creation code.
 */
import { decode, splitAuxdata } from '@ethereum-sourcify/bytecode-utils';
import type { Address, Hex } from '../../lib/domain/records.ts';
import type { MatchKind } from '../../lib/contracts/verifier.ts';
import { address, hex } from '../../lib/domain/hex.ts';

export interface Offset {
  readonly start: number;
  readonly length: number;
}
/** solc's linkReferences: file → library → offsets (bytes) */
export type LinkReferences = Readonly<Record<string, Readonly<Record<string, readonly Offset[]>>>>;
/** solc's immutableReferences: AST id → offsets (bytes) */
export type ImmutableReferences = Readonly<Record<string, readonly Offset[]>>;

export interface CompiledCode {
  /** creation bytecode, hex without 0x, placeholders unlinked */
  readonly creation: string;
  readonly creationLinks: LinkReferences;
  readonly runtime: string;
  readonly runtimeLinks: LinkReferences;
  readonly immutables: ImmutableReferences;
}

export interface CodeMatch {
  readonly runtimeMatch: MatchKind | null;
  readonly creationMatch: MatchKind | null;
  readonly libraries: Readonly<Record<string, Address>>;
  readonly immutables: Readonly<Record<string, Hex>>;
  /** hex without 0x: the creation input after the compiled creation code; null without a creation match */
  readonly constructorArguments: string | null;
}

const strip = (hex: string): string => (hex.startsWith('0x') || hex.startsWith('0X') ? hex.slice(2) : hex).toLowerCase();

/** Write `value` (hex) at byte `start` of `code` (hex). */
const put = (code: string, start: number, value: string): string => code.slice(0, start * 2) + value + code.slice(start * 2 + value.length);

function linkAll(code: string, links: LinkReferences, addresses: Readonly<Record<string, string>>): string {
  let out = code;
  for (const [file, libs] of Object.entries(links)) {
    for (const [lib, offsets] of Object.entries(libs)) {
      const address = addresses[`${file}:${lib}`];
      if (address === undefined) continue;
      for (const o of offsets) out = put(out, o.start, address);
    }
  }
  return out;
}

/** split into [execution, auxdata incl. its 2-byte length]; no auxdata: [code, ''] */
function split(code: string): [string, string] {
  try {
    const [exec, aux, len] = splitAuxdata(`0x${code}`);
    if (exec === undefined || aux === undefined || aux === '' || len === undefined) return [code, ''];
    return [strip(exec), strip(aux) + strip(len)];
  } catch {
    return [code, ''];
  }
}

/** the solc version in a code's CBOR auxdata (e.g. 0.8.19), null when it names none */
function solcVersionOf(code: string): string | null {
  try {
    const v = decode(`0x${code}`).solcVersion;
    return typeof v === 'string' ? v : null;
  } catch {
    return null;
  }
}

/** A partial match needs the metadata to name the same compiler (Blockscout rejects another solc version). */
const sameCompiler = (a: string, b: string): boolean => solcVersionOf(a) === solcVersionOf(b);

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;

/**
 * The libraries a standard JSON's `settings.libraries` links (`{file: {Name: address}}`, or the
 * flat `{Name: address}`), by `file:Name` (or `Name`): solc links these itself, so the compiled
 * code has no link references left to read them from. Entries that are no address are left out.
 */
export function settingsLibraries(settings: Readonly<Record<string, unknown>>): Readonly<Record<string, Address>> {
  const found: Record<string, Address> = {};
  const libraries = settings['libraries'];
  if (typeof libraries !== 'object' || libraries === null || Array.isArray(libraries)) return found;
  for (const [file, value] of Object.entries(libraries as Record<string, unknown>)) {
    if (typeof value === 'string') {
      if (ADDRESS.test(value)) found[file] = value.toLowerCase() as Address;
      continue;
    }
    if (typeof value !== 'object' || value === null) continue;
    for (const [name, address] of Object.entries(value as Record<string, unknown>)) {
      if (typeof address === 'string' && ADDRESS.test(address)) found[`${file}:${name}`] = address.toLowerCase() as Address;
    }
  }
  return found;
}

export function matchCode(
  compiled: CompiledCode,
  deployed: Hex,
  creationInput: Hex | undefined,
  given: Readonly<Record<string, Address>>,
): CodeMatch {
  const onchain = strip(deployed);
  // libraries: the given addresses (by `file:Name` or `Name`), else read off the deployed code
  const libraries: Record<string, string> = {};
  const allLinks = [compiled.runtimeLinks, compiled.creationLinks];
  for (const links of allLinks) {
    for (const [file, libs] of Object.entries(links)) {
      for (const lib of Object.keys(libs)) {
        const key = `${file}:${lib}`;
        const address = given[key] ?? given[lib];
        if (address !== undefined) libraries[key] = strip(address).padStart(40, '0');
      }
    }
  }
  for (const [file, libs] of Object.entries(compiled.runtimeLinks)) {
    for (const [lib, offsets] of Object.entries(libs)) {
      const first = offsets[0];
      const key = `${file}:${lib}`;
      if (libraries[key] === undefined && first !== undefined && onchain.length >= (first.start + 20) * 2) {
        libraries[key] = onchain.slice(first.start * 2, (first.start + 20) * 2);
      }
    }
  }
  let runtime = linkAll(compiled.runtime, compiled.runtimeLinks, libraries);
  const creation = linkAll(compiled.creation, compiled.creationLinks, libraries);

  // immutables: read off the deployed code, then masked (the compiled code holds zeros there)
  let masked = onchain;
  const immutables: Record<string, Hex> = {};
  for (const [id, offsets] of Object.entries(compiled.immutables)) {
    for (const o of offsets) {
      if (onchain.length < (o.start + o.length) * 2) continue;
      immutables[id] ??= hex(`0x${onchain.slice(o.start * 2, (o.start + o.length) * 2)}`);
      masked = put(masked, o.start, '00'.repeat(o.length));
    }
  }
  // a library's runtime starts with PUSH20 <its own address> (zeros when compiled)
  const protection = `73${'00'.repeat(20)}`;
  if (runtime.startsWith(protection) && masked.startsWith('73')) masked = put(masked, 1, '00'.repeat(20));
  runtime = runtime.toLowerCase();

  let runtimeMatch: MatchKind | null = null;
  if (masked === runtime && runtime !== '') runtimeMatch = 'full';
  else {
    const [a, auxA] = split(masked);
    const [b, auxB] = split(runtime);
    if (auxA !== '' && auxB !== '' && a === b && auxA.length === auxB.length && sameCompiler(masked, runtime)) runtimeMatch = 'partial';
  }

  let creationMatch: MatchKind | null = null;
  let constructorArguments: string | null = null;
  if (creationInput !== undefined) {
    const input = strip(creationInput);
    const compiledCreation = creation.toLowerCase();
    if (compiledCreation !== '' && input.startsWith(compiledCreation)) {
      creationMatch = 'full';
      constructorArguments = input.slice(compiledCreation.length);
    } else {
      // the creation code embeds the runtime's auxdata: mask it in both and compare again
      const [, aux] = split(runtime);
      const at = aux === '' ? -1 : compiledCreation.lastIndexOf(aux);
      if (at >= 0 && at % 2 === 0 && input.length >= compiledCreation.length) {
        const end = at + aux.length;
        const same = input.slice(0, at) === compiledCreation.slice(0, at) && input.slice(end, compiledCreation.length) === compiledCreation.slice(end);
        if (same && sameCompiler(masked, runtime)) {
          creationMatch = 'partial';
          constructorArguments = input.slice(compiledCreation.length);
        }
      }
    }
  }
  const libs: Record<string, Address> = {};
  for (const [k, v] of Object.entries(libraries)) libs[k] = address(`0x${v}`);
  return { runtimeMatch, creationMatch, libraries: libs, immutables, constructorArguments };
}
