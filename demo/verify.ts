/**
 * The demo's own contracts as artifacts (lib/contracts/artifacts.ts): what `scoutkit demo`
 * verifies its deployed contracts with, without compiling — the precompiled module
 * demo/artifacts.ts keeps the sources, the settings and each contract's runtime code with its
 * immutable and link references.
 */
import type { ArtifactContract } from '../lib/contracts/artifacts.ts';
import type { JsonObject, JsonValue } from '../lib/json.ts';
import { parseCompilerVersion } from '../lib/contracts/verifier.ts';
import { CONTRACTS, RUNTIME, SETTINGS, SOLC_VERSION, SOURCES } from './artifacts.ts';

const strip = (hex: string): string => hex.replace(/^0x/, '').toLowerCase();

export function demoArtifacts(): readonly ArtifactContract[] {
  const v = parseCompilerVersion(SOLC_VERSION);
  if (v?.commit === undefined) throw new Error(`demo/artifacts.ts: SOLC_VERSION ${SOLC_VERSION} names no commit`);
  const compilerVersion = `v${v.semver}+commit.${v.commit}`;
  return Object.entries(RUNTIME).flatMap(([name, r]): ArtifactContract[] => {
    const compiled = CONTRACTS[name];
    if (compiled === undefined) return [];
    return [
      {
        name,
        file: r.file,
        abi: compiled.abi as unknown as readonly JsonValue[],
        compilerVersion,
        settings: SETTINGS as unknown as JsonObject,
        sources: Object.fromEntries(r.sources.map((f) => [f, SOURCES[f] ?? ''])),
        creation: strip(compiled.bytecode),
        creationLinks: r.creationLinkReferences,
        runtime: strip(r.deployedBytecode),
        runtimeLinks: r.linkReferences,
        immutables: r.immutableReferences,
        format: 'embedded',
        build: 'scoutkit-demo',
      },
    ];
  });
}
