/**
 * Zero-step verification: a deployed contract matched against a build's artifacts
 * (lib/contracts/artifacts.ts) with the engine's matcher (match.ts) and no compile — the
 * artifact's output is the compiler's output. Candidates are the contracts whose runtime code
 * is as long as the deployed one; a full match wins over a partial one.
 */
import { decodeAbiParameters } from 'viem';
import type { Abi, AbiParameter } from 'viem';
import type { ArtifactContract, ArtifactSet } from '../../lib/contracts/artifacts.ts';
import { failure, spdxLicense, UNABLE_TO_VERIFY } from '../../lib/contracts/verifier.ts';
import type { VerificationOutcome } from '../../lib/contracts/verifier.ts';
import type { CodeMatcher } from '../../lib/contracts/verifyContract.ts';
import type { Hex } from '../../lib/domain/records.ts';
import { matchCode, settingsLibraries } from './match.ts';
import type { CodeMatch } from './match.ts';

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function constructorTypes(abi: readonly unknown[]): readonly AbiParameter[] {
  const ctor = abi.find((item) => isRecord(item) && item['type'] === 'constructor');
  return isRecord(ctor) && Array.isArray(ctor['inputs']) ? (ctor['inputs'] as readonly AbiParameter[]) : [];
}

/** the constructor arguments ABI-decode (none: nothing left after the code) */
function argumentsDecode(abi: readonly unknown[], hex: string): boolean {
  const types = constructorTypes(abi);
  if (types.length === 0) return hex === '';
  try {
    decodeAbiParameters(types, `0x${hex}`);
    return true;
  } catch {
    return false;
  }
}

function outcomeOf(c: ArtifactContract, m: CodeMatch): VerificationOutcome {
  const optimizer = isRecord(c.settings['optimizer']) ? c.settings['optimizer'] : {};
  const optimization = optimizer['enabled'] === true;
  const evmVersion = c.settings['evmVersion'];
  return {
    status: 'verified',
    name: c.name,
    file: c.file,
    abi: c.abi as unknown as Abi,
    compilerVersion: c.compilerVersion,
    compilerSettings: c.settings,
    sources: c.sources,
    match: m.runtimeMatch === 'full' || m.creationMatch === 'full' ? 'full' : 'partial',
    // solc linked `settings.libraries` itself: no link references name them
    libraries: { ...settingsLibraries(c.settings), ...m.libraries },
    constructorArguments: m.constructorArguments ?? '',
    immutables: m.immutables,
    runtimeMatch: m.runtimeMatch,
    creationMatch: m.creationMatch,
    license: spdxLicense(c.sources[c.file] ?? ''),
    optimization,
    optimizationRuns: optimization ? (typeof optimizer['runs'] === 'number' ? optimizer['runs'] : 200) : null,
    evmVersion: typeof evmVersion === 'string' ? evmVersion : 'default',
  };
}

/** The matcher over a set of artifacts. */
export function createArtifactMatcher(set: ArtifactSet): CodeMatcher & { match(deployed: Hex, creation: Hex | null): VerificationOutcome } {
  return {
    match(deployed: Hex, creation: Hex | null): VerificationOutcome {
      let partial: VerificationOutcome | null = null;
      for (const c of set.candidates(deployed)) {
        const m = matchCode(
          { creation: c.creation, creationLinks: c.creationLinks, runtime: c.runtime, runtimeLinks: c.runtimeLinks, immutables: c.immutables },
          deployed,
          creation ?? undefined,
          {},
        );
        if (m.runtimeMatch === null) continue;
        // the creation input's remainder is kept only when it decodes as the constructor's arguments
        const args = m.constructorArguments !== null && argumentsDecode(c.abi, m.constructorArguments) ? m : { ...m, constructorArguments: null, creationMatch: null };
        const outcome = outcomeOf(c, args);
        if (outcome.status === 'verified' && outcome.match === 'full') return outcome;
        partial ??= outcome;
      }
      return partial ?? failure('mismatch', `${UNABLE_TO_VERIFY}: no contract of the artifacts matches the deployed code`);
    },
  };
}
