/**
 * Compile demo/contracts/*.sol with solc-js (standard JSON) and render the result as the
 * checked-in module demo/artifacts.ts. A build-time tool (solc is a devDependency): the demo
 * loads the precompiled artifacts; `npm run build:contracts` writes them and
 * test/demo/artifacts.test.ts fails when they are stale. Besides each contract's ABI and
 * creation code, the module keeps what verifies the deployed contracts without compiling (the
 * sources, the settings, each contract's runtime code with its immutable and link references,
 * and the files it was compiled from): `scoutkit demo` verifies its own contracts with them.
 */
import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Abi } from 'viem';
import type { CompiledContracts } from './artifacts.ts';

export const contractsDir = fileURLToPath(new URL('./contracts/', import.meta.url));
export const artifactsFile = fileURLToPath(new URL('./artifacts.ts', import.meta.url));

const SETTINGS = {
  optimizer: { enabled: true, runs: 200 },
  evmVersion: 'cancun',
  outputSelection: {
    '*': {
      '*': [
        'abi',
        'metadata',
        'evm.bytecode.object',
        'evm.bytecode.linkReferences',
        'evm.deployedBytecode.object',
        'evm.deployedBytecode.linkReferences',
        'evm.deployedBytecode.immutableReferences',
      ],
    },
  },
} as const;

type Offsets = readonly { readonly start: number; readonly length: number }[];
type LinkReferences = Readonly<Record<string, Readonly<Record<string, Offsets>>>>;

/** What verifies a deployed demo contract besides its ABI and creation code (demo/artifacts.ts RUNTIME). */
export interface RuntimeArtifact {
  /** its source file (a key of SOURCES) */
  readonly file: string;
  /** the files it was compiled from (its metadata's sources) */
  readonly sources: readonly string[];
  readonly deployedBytecode: string;
  readonly immutableReferences: Readonly<Record<string, Offsets>>;
  readonly linkReferences: LinkReferences;
  readonly creationLinkReferences: LinkReferences;
}

interface SolcError {
  readonly severity: string;
  readonly formattedMessage?: string;
  readonly message: string;
}
interface SolcContract {
  readonly abi: Abi;
  readonly metadata: string;
  readonly evm: {
    readonly bytecode: { readonly object: string; readonly linkReferences: LinkReferences };
    readonly deployedBytecode: { readonly object: string; readonly linkReferences: LinkReferences; readonly immutableReferences?: Readonly<Record<string, Offsets>> };
  };
}
interface SolcOutput {
  readonly errors?: readonly SolcError[];
  readonly contracts?: Record<string, Record<string, SolcContract>>;
}

export interface Compilation {
  /** solc's full version string, e.g. 0.8.37+commit.… */
  readonly solc: string;
  readonly contracts: CompiledContracts;
  /** the sources compiled, file → content */
  readonly sources: Readonly<Record<string, string>>;
  readonly runtime: Readonly<Record<string, RuntimeArtifact>>;
}

async function readSources(): Promise<Record<string, { content: string }>> {
  const files = (await readdir(contractsDir)).filter((f) => f.endsWith('.sol')).sort();
  const sources: Record<string, { content: string }> = {};
  for (const file of files) sources[file] = { content: await readFile(contractsDir + file, 'utf8') };
  return sources;
}

/** Every deployable contract of demo/contracts by name (e.g. `DemoToken`), with ABI and creation bytecode. */
export async function compileContracts(): Promise<Compilation> {
  const sources = await readSources();
  const solc = (await import('solc')).default;
  const run: (input: string) => string = solc.compile;
  const output = JSON.parse(run(JSON.stringify({ language: 'Solidity', sources, settings: SETTINGS }))) as SolcOutput;
  const errors = (output.errors ?? []).filter((e) => e.severity === 'error');
  if (errors.length > 0) {
    throw new Error(`solc failed to compile demo/contracts:\n${errors.map((e) => e.formattedMessage ?? e.message).join('\n')}`);
  }
  const contracts: Record<string, CompiledContracts[string]> = {};
  const runtime: Record<string, RuntimeArtifact> = {};
  for (const [file, byName] of Object.entries(output.contracts ?? {})) {
    for (const [name, c] of Object.entries(byName)) {
      const object = c.evm.bytecode.object;
      if (object.length === 0) continue; // interfaces
      if (name in contracts) throw new Error(`duplicate contract name ${name} (in ${file})`);
      contracts[name] = { abi: c.abi, bytecode: `0x${object}` };
      const metadata = JSON.parse(c.metadata) as { sources: Record<string, unknown> };
      runtime[name] = {
        file,
        sources: Object.keys(metadata.sources).sort(),
        deployedBytecode: `0x${c.evm.deployedBytecode.object}`,
        immutableReferences: c.evm.deployedBytecode.immutableReferences ?? {},
        linkReferences: c.evm.deployedBytecode.linkReferences,
        creationLinkReferences: c.evm.bytecode.linkReferences,
      };
    }
  }
  const version: () => string = solc.version;
  return { solc: version(), contracts, sources: Object.fromEntries(Object.entries(sources).map(([f, s]) => [f, s.content])), runtime };
}

/** The text of demo/artifacts.ts for a compilation (deterministic: names sorted). */
export function renderArtifacts({ solc, contracts, sources, runtime }: Compilation): string {
  const byName = <T>(o: Readonly<Record<string, T>>): Record<string, T> => Object.fromEntries(Object.entries(o).sort(([a], [b]) => a.localeCompare(b)));
  const sorted = byName(contracts);
  const settings = { optimizer: SETTINGS.optimizer, evmVersion: SETTINGS.evmVersion, outputSelection: SETTINGS.outputSelection };
  return `// Generated by \`npm run build:contracts\` (demo/build-contracts.ts) from demo/contracts/*.sol: do not edit.
// test/demo/artifacts.test.ts recompiles the sources and fails when this file is stale.
import type { Abi, Hex } from 'viem';

export interface CompiledContract {
  readonly abi: Abi;
  /** creation bytecode */
  readonly bytecode: Hex;
}

export type CompiledContracts = Readonly<Record<string, CompiledContract>>;

/** the compiler that produced them (optimizer on, 200 runs, EVM cancun) */
export const SOLC_VERSION = ${JSON.stringify(solc)};

export const CONTRACTS: CompiledContracts = ${JSON.stringify(sorted, null, 2)};

// What verifies the deployed contracts without compiling (scoutkit demo does, at start).

type Offsets = readonly { readonly start: number; readonly length: number }[];
type LinkReferences = Readonly<Record<string, Readonly<Record<string, Offsets>>>>;

export interface RuntimeArtifact {
  /** its source file (a key of SOURCES) */
  readonly file: string;
  /** the files it was compiled from (its metadata's sources) */
  readonly sources: readonly string[];
  readonly deployedBytecode: Hex;
  readonly immutableReferences: Readonly<Record<string, Offsets>>;
  readonly linkReferences: LinkReferences;
  readonly creationLinkReferences: LinkReferences;
}

/** the standard-JSON settings they were compiled with */
export const SETTINGS = ${JSON.stringify(settings, null, 2)};

/** the sources compiled (demo/contracts), file → content */
export const SOURCES: Readonly<Record<string, string>> = ${JSON.stringify(byName(sources), null, 2)};

/** each contract's runtime code and references, by name */
export const RUNTIME: Readonly<Record<string, RuntimeArtifact>> = ${JSON.stringify(byName(runtime), null, 2)};
`;
}
