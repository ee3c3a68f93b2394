/**
 * Compile demo/contracts/*.sol with solc-js (standard JSON). Cached in memory per process and on
 * disk under node_modules/.cache/scoutkit/, keyed by a hash of the sources, settings and compiler.
 */
import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rename, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Abi, Hex } from 'viem';

export interface CompiledContract {
  readonly abi: Abi;
  readonly bytecode: Hex;
}

export type CompiledContracts = Record<string, CompiledContract>;

const contractsDir = fileURLToPath(new URL('./contracts/', import.meta.url));
const cacheDir = fileURLToPath(new URL('../node_modules/.cache/scoutkit/', import.meta.url));

const SETTINGS = {
  optimizer: { enabled: true, runs: 200 },
  evmVersion: 'cancun',
  outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } },
} as const;

interface SolcError {
  readonly severity: string;
  readonly formattedMessage?: string;
  readonly message: string;
}
interface SolcOutput {
  readonly errors?: readonly SolcError[];
  readonly contracts?: Record<string, Record<string, { abi: Abi; evm: { bytecode: { object: string } } }>>;
}

let memo: Promise<CompiledContracts> | undefined;

/** Every deployable contract of demo/contracts by name (e.g. `DemoToken`), with ABI and creation bytecode. */
export function compileContracts(): Promise<CompiledContracts> {
  memo ??= load().catch((e: unknown) => {
    memo = undefined;
    throw e;
  });
  return memo;
}

async function readSources(): Promise<Record<string, { content: string }>> {
  const files = (await readdir(contractsDir)).filter((f) => f.endsWith('.sol')).sort();
  const sources: Record<string, { content: string }> = {};
  for (const file of files) sources[file] = { content: await readFile(contractsDir + file, 'utf8') };
  return sources;
}

async function load(): Promise<CompiledContracts> {
  const sources = await readSources();
  const pkg = JSON.parse(await readFile(fileURLToPath(new URL('../node_modules/solc/package.json', import.meta.url)), 'utf8')) as { version: string };
  const key = createHash('sha256').update(JSON.stringify({ solc: pkg.version, SETTINGS, sources })).digest('hex').slice(0, 16);
  const cacheFile = `${cacheDir}solc-${key}.json`;
  try {
    return JSON.parse(await readFile(cacheFile, 'utf8')) as CompiledContracts;
  } catch {
    // not cached yet (or unreadable): compile
  }
  const compiled = await compile(sources);
  try {
    await mkdir(cacheDir, { recursive: true });
    const tmp = `${cacheFile}.${process.pid}.tmp`;
    await writeFile(tmp, JSON.stringify(compiled));
    await rename(tmp, cacheFile);
  } catch {
    // the disk cache is optional
  }
  return compiled;
}

async function compile(sources: Record<string, { content: string }>): Promise<CompiledContracts> {
  const solc = (await import('solc')).default;
  const run: (input: string) => string = solc.compile;
  const output = JSON.parse(run(JSON.stringify({ language: 'Solidity', sources, settings: SETTINGS }))) as SolcOutput;
  const errors = (output.errors ?? []).filter((e) => e.severity === 'error');
  if (errors.length > 0) {
    throw new Error(`solc failed to compile demo/contracts:\n${errors.map((e) => e.formattedMessage ?? e.message).join('\n')}`);
  }
  const out: CompiledContracts = {};
  for (const [file, contracts] of Object.entries(output.contracts ?? {})) {
    for (const [name, c] of Object.entries(contracts)) {
      const object = c.evm.bytecode.object;
      if (object.length === 0) continue; // interfaces
      if (name in out) throw new Error(`duplicate contract name ${name} (in ${file})`);
      out[name] = { abi: c.abi, bytecode: `0x${object}` };
    }
  }
  return out;
}
