/**
 * `--artifacts <dir>`: a Foundry or Hardhat project's build-info files read into an artifact
 * matcher (zero-step verification, no compile). The directory may be the project's root, its
 * `out/` (Foundry) or `artifacts/` (Hardhat), or the `build-info/` directory itself.
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { artifactSet, ArtifactsError, contractsOfBuildInfo } from '../lib/contracts/artifacts.ts';
import type { ArtifactContract, BuildInfoFormat } from '../lib/contracts/artifacts.ts';
import type { CodeMatcher, VerifyContractResult } from '../lib/contracts/verifyContract.ts';

export interface LoadedArtifacts {
  /** the build-info directories read */
  readonly dirs: readonly string[];
  readonly files: number;
  readonly formats: readonly BuildInfoFormat[];
  /** every compiled contract with runtime code, each once */
  readonly contracts: readonly ArtifactContract[];
  readonly matcher: CodeMatcher;
  /** files that could not be read, and why */
  readonly skipped: readonly string[];
}

const isDir = (path: string): Promise<boolean> => stat(path).then((s) => s.isDirectory(), () => false);

/** The build-info directory of a project, its out/ or artifacts/, or the directory itself. */
export async function buildInfoDir(dir: string): Promise<string> {
  const tried = [join(dir, 'build-info'), join(dir, 'out', 'build-info'), join(dir, 'artifacts', 'build-info')];
  for (const path of tried) if (await isDir(path)) return path;
  if ((await isDir(dir)) && dir.replace(/\/+$/, '').endsWith('build-info')) return dir;
  if (!(await isDir(dir))) throw new Error(`--artifacts ${dir}: no such directory`);
  throw new Error(
    `--artifacts ${dir}: no build-info directory in it (looked for build-info/, out/build-info/, artifacts/build-info/): Foundry writes it with build_info = true in foundry.toml (or forge build --build-info), Hardhat on every compile`,
  );
}

async function readJson(path: string): Promise<unknown> {
  return JSON.parse(await readFile(path, 'utf8')) as unknown;
}

/** Read the build info of each directory; throws when none holds a usable build. */
export async function loadArtifacts(dirs: readonly string[]): Promise<LoadedArtifacts> {
  const contracts: ArtifactContract[] = [];
  const skipped: string[] = [];
  const formats = new Set<BuildInfoFormat>();
  const read: string[] = [];
  let files = 0;
  for (const dir of dirs) {
    const at = await buildInfoDir(dir);
    read.push(at);
    const names = (await readdir(at)).filter((n) => n.endsWith('.json') && !n.endsWith('.output.json')).sort();
    for (const name of names) {
      const path = join(at, name);
      try {
        const info = await readJson(path);
        const outputPath = join(at, name.replace(/\.json$/, '.output.json'));
        const output = typeof info === 'object' && info !== null && (info as { _format?: unknown })._format === 'hh3-sol-build-info-1' ? await readJson(outputPath).catch(() => undefined) : undefined;
        const build = contractsOfBuildInfo(info, output);
        files++;
        formats.add(build.format);
        contracts.push(...build.contracts);
      } catch (e) {
        skipped.push(`${path}: ${e instanceof ArtifactsError || e instanceof SyntaxError ? e.message : String(e)}`);
      }
    }
  }
  if (files === 0) {
    throw new Error(`--artifacts: no usable build info in ${read.join(', ')}${skipped.length > 0 ? ` (${skipped[0] ?? ''})` : ' (no .json files)'}`);
  }
  const set = artifactSet(contracts);
  // the matcher (and its CBOR decoder) loads only when artifacts are given: scoutkit/host stays light
  const { createArtifactMatcher } = await import('../adapters/solc/artifacts.ts');
  return { dirs: read, files, formats: [...formats], contracts: set.contracts, matcher: createArtifactMatcher(set), skipped };
}

/** One line for a contract checked against the artifacts (with its time: no compile, so milliseconds). */
export function resultLine(result: VerifyContractResult): string {
  const ms = result.ms < 10 ? result.ms.toFixed(2) : result.ms.toFixed(0);
  if (result.status === 'verified') {
    const c = result.contract;
    return `verified ${result.address} as ${c.filePath}:${c.name} (${c.match} match${result.saved ? '' : ', already stored'}) in ${ms} ms`;
  }
  return `not verified ${result.address}: ${result.message} (${ms} ms)`;
}

/** The fields of a JSON log line for a contract checked. */
export function resultFields(result: VerifyContractResult): Record<string, unknown> {
  return result.status === 'verified'
    ? { address: result.address, name: result.contract.name, file: result.contract.filePath, match: result.contract.match, saved: result.saved, ms: Number(result.ms.toFixed(3)) }
    : { address: result.address, reason: result.reason, message: result.message, ms: Number(result.ms.toFixed(3)) };
}
