/**
 * Build-info files as Foundry, Hardhat 2 and Hardhat 3 write them, made by code: sources
 * compiled with the solc fixture (test/adapters/solc/fixture.ts) into each tool's shape, minimal
 * but true — the fields each tool writes that a reader keys on, solc's output as the tool keeps it.
 *
 * - Foundry (`out/build-info/<md5>.json`, `build_info = true`): id, source_id_to_path, language,
 *   _format `ethers-rs-sol-build-info-1`, compilerVersion, inputVersion, inputVersionLong, input
 *   (version, language, sources, settings, allowPaths, basePath, includePaths) and output
 *   (errors, sources by id, contracts with `0x`-prefixed bytecode objects).
 * - Hardhat 2 (`artifacts/build-info/<md5>.json`): _format `hh-sol-build-info-1`, id,
 *   solcVersion, solcLongVersion, input, output (solc's, verbatim).
 * - Hardhat 3 (`artifacts/build-info/solc-<v>-<hash>.json` and `.output.json`): _format
 *   `hh3-sol-build-info-1` with id, solcVersion, solcLongVersion, publicSourceNameMap, input;
 *   the output file `hh3-sol-build-info-output-1` with id and output.
 */
import { createHash } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { StandardJsonInput } from '../../lib/contracts/verifier.ts';
import { buildOutput, solcVersion } from '../adapters/solc/fixture.ts';

type Pkg = 'solc' | 'solc-0.8.19';
type Json = Record<string, unknown>;

/** `0.8.37+commit.f401782d` (the long version as the tools record it, without solc-js's platform suffix) */
export const longVersion = (pkg: Pkg): string => solcVersion(pkg).replace(/^(\d+\.\d+\.\d+\+commit\.[0-9a-f]{8}).*$/, '$1');
const shortVersion = (pkg: Pkg): string => longVersion(pkg).replace(/\+.*$/, '');
const md5 = (text: string): string => createHash('md5').update(text).digest('hex');

/** Foundry serialises bytecode objects with a 0x prefix */
function foundryContracts(contracts: unknown): Json {
  const out: Json = {};
  for (const [file, byName] of Object.entries(contracts as Record<string, Record<string, Json>>)) {
    out[file] = Object.fromEntries(
      Object.entries(byName).map(([name, c]) => {
        const evm = c['evm'] as Record<string, Json>;
        const prefix = (code: Json | undefined): Json => ({ ...code, object: `0x${String(code?.['object'] ?? '')}` });
        return [name, { ...c, evm: { ...evm, bytecode: prefix(evm['bytecode']), deployedBytecode: prefix(evm['deployedBytecode']) } }];
      }),
    );
  }
  return out;
}

/** sources by id only (the tools ask for the AST; a reader of build info for verification does not need it) */
const sourceIds = (sources: unknown): Json =>
  Object.fromEntries(Object.entries(sources as Record<string, { id: number }>).map(([file, s]) => [file, { id: s.id }]));

/** A Foundry project's `out/build-info/<id>.json`; returns the project root's build-info path. */
export async function writeFoundryBuild(root: string, input: StandardJsonInput, pkg: Pkg = 'solc'): Promise<string> {
  const { settings, output } = buildOutput(input, pkg);
  const foundryInput = { version: longVersion(pkg), language: 'Solidity', sources: input.sources, settings, allowPaths: [root], basePath: root, includePaths: [] };
  const id = md5(`ethers-rs-sol-build-info-1${shortVersion(pkg)}${JSON.stringify(foundryInput)}`);
  const sources = sourceIds(output['sources']);
  const info = {
    id,
    source_id_to_path: Object.fromEntries(Object.entries(sources).map(([file, s]) => [String((s as { id: number }).id), file])),
    language: 'Solidity',
    _format: 'ethers-rs-sol-build-info-1',
    compilerVersion: shortVersion(pkg),
    inputVersion: shortVersion(pkg),
    inputVersionLong: longVersion(pkg),
    input: foundryInput,
    output: { errors: output['errors'] ?? [], sources, contracts: foundryContracts(output['contracts']) },
  };
  const dir = join(root, 'out', 'build-info');
  await mkdir(dir, { recursive: true });
  await writeFile(join(root, 'foundry.toml'), '[profile.default]\nsrc = "src"\nout = "out"\nbuild_info = true\n');
  await writeFile(join(dir, `${id}.json`), JSON.stringify(info));
  return dir;
}

/** Foundry's build info without `build_info = true`: only the id, the source ids and the language. */
export async function writeFoundryBareBuild(root: string): Promise<string> {
  const dir = join(root, 'out', 'build-info');
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'a1b2c3.json'), JSON.stringify({ id: 'a1b2c3', source_id_to_path: { '0': 'src/Token.sol' }, language: 'Solidity' }));
  return dir;
}

/** A Hardhat 2 project's `artifacts/build-info/<id>.json`. */
export async function writeHardhat2Build(root: string, input: StandardJsonInput, pkg: Pkg = 'solc'): Promise<string> {
  const { settings, output } = buildOutput(input, pkg);
  const hhInput = { language: 'Solidity', sources: input.sources, settings };
  const id = md5(JSON.stringify({ _format: 'hh-sol-build-info-1', solcVersion: shortVersion(pkg), solcLongVersion: longVersion(pkg), input: hhInput }));
  const info = { id, _format: 'hh-sol-build-info-1', solcVersion: shortVersion(pkg), solcLongVersion: longVersion(pkg), input: hhInput, output: { ...output, sources: sourceIds(output['sources']) } };
  const dir = join(root, 'artifacts', 'build-info');
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, `${id}.json`), JSON.stringify(info));
  return dir;
}

/** A Hardhat 3 project's `artifacts/build-info/<id>.json` and `<id>.output.json` (source names `project/…`). */
export async function writeHardhat3Build(root: string, input: StandardJsonInput, pkg: Pkg = 'solc'): Promise<string> {
  const { settings, output } = buildOutput(input, pkg);
  const hhInput = { language: 'Solidity', sources: input.sources, settings };
  const id = `solc-${shortVersion(pkg).replace(/\./g, '_')}-${md5(JSON.stringify(hhInput)).slice(0, 40)}`;
  const publicSourceNameMap = Object.fromEntries(Object.keys(input.sources).map((name) => [name.replace(/^project\//, ''), name]));
  const info = { _format: 'hh3-sol-build-info-1', id, solcVersion: shortVersion(pkg), solcLongVersion: longVersion(pkg), publicSourceNameMap, input: hhInput };
  const dir = join(root, 'artifacts', 'build-info');
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, `${id}.json`), JSON.stringify(info));
  await writeFile(join(dir, `${id}.output.json`), JSON.stringify({ _format: 'hh3-sol-build-info-output-1', id, output: { ...output, sources: sourceIds(output['sources']) } }));
  return dir;
}
