/**
 * Solidity's metadata.json and the sources it names as a standard JSON input, its compiler
 * version and the contract's identifier (the metadata's compilation target): what API v2's
 * metadata form and the legacy `POST /` submit. Each source is found by its path, else by the
 * keccak256 the metadata records for it (files sent under other names), else from the content the
 * metadata carries itself (`useLiteralContent`).
 */
import { keccak256, stringToHex } from 'viem';
import type { Metadata } from './codecs.ts';
import type { VerifyBody } from './codecs.ts';

export type MetadataInput = Pick<VerifyBody, 'stdJsonInput' | 'compilerVersion' | 'contractIdentifier'>;

/** The input, or what is missing. */
export function inputOfMetadata(metadata: Metadata, files: Readonly<Record<string, string>>): { readonly value: MetadataInput } | { readonly message: string } {
  const [target] = Object.entries(metadata.settings.compilationTarget);
  if (target === undefined) return { message: 'The metadata names no compilation target' };
  const byHash = new Map(Object.values(files).map((content) => [keccak256(stringToHex(content)), content]));
  const sources: Record<string, { content: string }> = {};
  for (const [path, entry] of Object.entries(metadata.sources)) {
    const hash = typeof entry['keccak256'] === 'string' ? entry['keccak256'].toLowerCase() : undefined;
    const literal = typeof entry['content'] === 'string' ? entry['content'] : undefined;
    const content = files[path] ?? (hash !== undefined ? byHash.get(hash as `0x${string}`) : undefined) ?? literal;
    if (content === undefined) return { message: `Missing source: ${path}` };
    sources[path] = { content };
  }
  const { compilationTarget: _target, libraries, ...settings } = metadata.settings;
  const linked = librariesOf(libraries);
  return {
    value: {
      stdJsonInput: { language: metadata.language, sources, settings: linked === undefined ? settings : { ...settings, libraries: linked } },
      compilerVersion: metadata.compiler.version,
      contractIdentifier: `${target[0]}:${target[1]}`,
    },
  };
}

/** The metadata's libraries (`"path:Name": address`, or `"Name"`) as standard JSON's (`{path: {Name: address}}`). */
function librariesOf(libraries: unknown): Record<string, Record<string, string>> | undefined {
  if (libraries === null || typeof libraries !== 'object') return undefined;
  const out: Record<string, Record<string, string>> = {};
  for (const [key, address] of Object.entries(libraries as Record<string, unknown>)) {
    if (typeof address !== 'string') continue;
    const cut = key.lastIndexOf(':');
    const file = cut === -1 ? '' : key.slice(0, cut);
    const name = cut === -1 ? key : key.slice(cut + 1);
    out[file] = { ...out[file], [name]: address };
  }
  return Object.keys(out).length > 0 ? out : undefined;
}
