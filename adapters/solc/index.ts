/**
 * The solc verifier (ContractVerifier): finds the compiler in the compiler directory
 * (compilers.ts), compiles in the bounded worker pool (pool.ts), picks the contract and matches
 * it against the chain's code (match.ts). Identical jobs in flight run once.
 */
import { createHash } from 'node:crypto';
import { decodeAbiParameters } from 'viem';
import type { Abi, AbiParameter } from 'viem';
import {
  failure,
  parseCompilerVersion,
  singleFileToStandardJson,
  spdxLicense,
  splitContractName,
  UNABLE_TO_VERIFY,
} from '../../lib/contracts/verifier.ts';
import type { ContractVerifier, StandardJsonInput, VerificationJob, VerificationOutcome } from '../../lib/contracts/verifier.ts';
import { CompilerDirectory, CompilerUnavailableError } from './compilers.ts';
import type { CompilerDirectoryOptions } from './compilers.ts';
import { matchCode, settingsLibraries } from './match.ts';
import type { ImmutableReferences, LinkReferences } from './match.ts';
import { CompilePool } from './pool.ts';
import type { PoolOptions } from './pool.ts';

export { CompilerDirectory, CompilerUnavailableError, compilersBaseUrl, defaultCompilersDir, packagedCompilers, SOLC_BINARIES } from './compilers.ts';
export type { Compiler, CompilerDirectoryOptions, PackagedCompiler } from './compilers.ts';
export { CompilePool } from './pool.ts';
export type { PoolOptions, PoolResult } from './pool.ts';
export { matchCode, settingsLibraries } from './match.ts';
export { createArtifactMatcher } from './artifacts.ts';

export interface SolcVerifierOptions extends PoolOptions {
  /** the compiler directory and its downloads */
  readonly compilers?: CompilerDirectoryOptions | CompilerDirectory;
}

interface SolcContractOutput {
  readonly abi?: Abi;
  readonly metadata?: string;
  readonly evm?: {
    readonly bytecode?: { readonly object?: string; readonly linkReferences?: LinkReferences };
    readonly deployedBytecode?: { readonly object?: string; readonly linkReferences?: LinkReferences; readonly immutableReferences?: ImmutableReferences };
  };
}
interface SolcOutput {
  readonly errors?: readonly { readonly severity: string; readonly formattedMessage?: string; readonly message: string }[];
  readonly contracts?: Readonly<Record<string, Readonly<Record<string, SolcContractOutput>>>>;
}

const OUTPUT = [
  'abi',
  'metadata',
  'evm.bytecode.object',
  'evm.bytecode.linkReferences',
  'evm.deployedBytecode.object',
  'evm.deployedBytecode.linkReferences',
  'evm.deployedBytecode.immutableReferences',
];

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function parseInput(job: VerificationJob, name: string): StandardJsonInput | string {
  if (job.input.kind === 'single-file') return singleFileToStandardJson(name, job.input);
  let json: unknown = job.input.json;
  if (typeof json === 'string') {
    try {
      json = JSON.parse(json);
    } catch (e) {
      return `The standard JSON input is not JSON: ${e instanceof Error ? e.message : String(e)}`;
    }
  }
  if (!isRecord(json) || !isRecord(json['sources'])) return 'The standard JSON input has no "sources" object';
  for (const [file, source] of Object.entries(json['sources'])) {
    if (!isRecord(source) || typeof source['content'] !== 'string') return `The source ${JSON.stringify(file)} has no "content" text (URLs are not fetched)`;
  }
  if (json['settings'] !== undefined && !isRecord(json['settings'])) return 'The standard JSON "settings" is not an object';
  const language = typeof json['language'] === 'string' ? json['language'] : 'Solidity';
  if (language !== 'Solidity') return `The language ${JSON.stringify(language)} is not supported: only Solidity`;
  return { language, sources: json['sources'] as StandardJsonInput['sources'], ...(isRecord(json['settings']) ? { settings: json['settings'] } : {}) };
}

/** the settings solc gets: the submitted ones, with the output we read */
const compileSettings = (settings: Readonly<Record<string, unknown>>): Record<string, unknown> => ({
  ...settings,
  outputSelection: { '*': { '*': OUTPUT, '': [] } },
});

function constructorTypes(abi: Abi): readonly AbiParameter[] {
  const ctor = abi.find((item) => item.type === 'constructor');
  return ctor !== undefined && 'inputs' in ctor ? ctor.inputs : [];
}

const argumentsDecode = (abi: Abi, hex: string): boolean => {
  const types = constructorTypes(abi);
  if (types.length === 0) return hex === '';
  try {
    decodeAbiParameters(types, `0x${hex}`);
    return true;
  } catch {
    return false;
  }
};

export function createSolcVerifier(options: SolcVerifierOptions = {}): ContractVerifier & { readonly pool: CompilePool; readonly compilers: CompilerDirectory } {
  const compilers = options.compilers instanceof CompilerDirectory ? options.compilers : new CompilerDirectory(options.compilers);
  const pool = new CompilePool(options);
  const inFlight = new Map<string, Promise<VerificationOutcome>>();

  async function run(job: VerificationJob): Promise<VerificationOutcome> {
    if (job.language !== 'solidity') return failure('unsupported-language', `${job.language} is not supported: no ${job.language} compiler here, only Solidity`);
    if (parseCompilerVersion(job.compilerVersion) === null) return failure('unknown-compiler', `Invalid compiler version ${JSON.stringify(job.compilerVersion)}`);
    const wanted = splitContractName(job.contractName);
    // no name: every contract compiled is a candidate (API v2's multi-part form names none)
    const input = parseInput(job, wanted.name === '' ? 'Contract' : wanted.name);
    if (typeof input === 'string') return failure('invalid-input', input);
    if (!/^0x[0-9a-fA-F]*$/.test(job.deployedCode) || job.deployedCode.length <= 2) return failure('invalid-input', 'The address is not a smart contract');
    const given = job.constructorArguments?.replace(/^0x/i, '').toLowerCase();
    if (given !== undefined && !/^([0-9a-f]{2})*$/.test(given)) return failure('constructor-arguments', 'The constructor arguments are not hex');

    let compiler;
    try {
      compiler = await compilers.find(job.compilerVersion);
    } catch (e) {
      return failure('unknown-compiler', e instanceof CompilerUnavailableError ? e.message : `Compiler ${job.compilerVersion}: ${String(e)}`);
    }
    const settings = input.settings ?? {};
    const result = await pool.compile({ compiler, input: JSON.stringify({ language: input.language, sources: input.sources, settings: compileSettings(settings) }) });
    if (result.kind === 'error') {
      const reason = result.reason === 'busy' ? 'busy' : result.reason === 'timeout' ? 'timeout' : result.reason === 'out-of-memory' ? 'out-of-memory' : 'compiler-errors';
      return failure(reason, result.message);
    }
    let output: SolcOutput;
    try {
      output = JSON.parse(result.output) as SolcOutput;
    } catch {
      return failure('compiler-errors', `The compiler answered no JSON: ${result.output.slice(0, 200)}`);
    }
    const errors = (output.errors ?? []).filter((e) => e.severity === 'error').map((e) => e.formattedMessage ?? e.message);
    if (errors.length > 0) return failure('compiler-errors', `Compilation failed: ${errors[0] ?? ''}`, errors);

    const candidates = Object.entries(output.contracts ?? {}).flatMap(([file, byName]) =>
      Object.entries(byName)
        .filter(([name]) => (wanted.name === '' || name === wanted.name) && (wanted.path === undefined || file === wanted.path))
        .map(([name, c]) => ({ file, name, c })),
    );
    if (candidates.length === 0 && wanted.name === '') return failure('contract-not-found', 'The sources compile to no contract');
    if (candidates.length === 0) return failure('contract-not-found', `No contract with name ${wanted.path === undefined ? '' : `${wanted.path}:`}${wanted.name} found`);

    let argsMismatch = false;
    for (const { file, name, c } of candidates) {
      const m = matchCode(
        {
          creation: c.evm?.bytecode?.object ?? '',
          creationLinks: c.evm?.bytecode?.linkReferences ?? {},
          runtime: c.evm?.deployedBytecode?.object ?? '',
          runtimeLinks: c.evm?.deployedBytecode?.linkReferences ?? {},
          immutables: c.evm?.deployedBytecode?.immutableReferences ?? {},
        },
        job.deployedCode,
        job.creationInput,
        job.libraries ?? {},
      );
      if (m.runtimeMatch === null && m.creationMatch === null) continue;
      const abi = c.abi ?? [];
      const constructorArguments = m.constructorArguments ?? given ?? '';
      if (m.constructorArguments !== null && given !== undefined && given !== m.constructorArguments) {
        argsMismatch = true;
        continue;
      }
      if (!argumentsDecode(abi, constructorArguments)) {
        argsMismatch = true;
        continue;
      }
      const meta = (() => {
        try {
          return JSON.parse(c.metadata ?? '{}') as { compiler?: { version?: string } };
        } catch {
          return {};
        }
      })();
      const parsedLong = parseCompilerVersion(meta.compiler?.version ?? job.compilerVersion);
      const requested = parseCompilerVersion(job.compilerVersion);
      if (requested?.commit !== undefined && parsedLong?.commit !== undefined && requested.commit !== parsedLong.commit) {
        return failure('unknown-compiler', `The compiler in ${compiler.path} is v${meta.compiler?.version ?? '?'}, not ${job.compilerVersion}`);
      }
      const optimizer = isRecord(settings['optimizer']) ? settings['optimizer'] : {};
      const optimization = optimizer['enabled'] === true;
      const sources = Object.fromEntries(Object.entries(input.sources).map(([f, s]) => [f, s.content]));
      const full = m.runtimeMatch === 'full' || m.creationMatch === 'full';
      return {
        status: 'verified',
        name,
        file,
        abi,
        compilerVersion: `v${meta.compiler?.version ?? job.compilerVersion.replace(/^v/, '')}`,
        compilerSettings: settings,
        sources,
        match: full ? 'full' : 'partial',
        // solc linked `settings.libraries` itself: no link references name them
        libraries: { ...settingsLibraries(settings), ...m.libraries },
        constructorArguments,
        immutables: m.immutables,
        runtimeMatch: m.runtimeMatch,
        creationMatch: m.creationMatch,
        license: spdxLicense(sources[file] ?? ''),
        optimization,
        optimizationRuns: optimization ? (typeof optimizer['runs'] === 'number' ? optimizer['runs'] : 200) : null,
        evmVersion: typeof settings['evmVersion'] === 'string' ? settings['evmVersion'] : 'default',
      };
    }
    return argsMismatch
      ? failure('constructor-arguments', `${UNABLE_TO_VERIFY}: the code matches but the constructor arguments do not (they must be the creation input after the code, ABI-encoded)`)
      : failure('mismatch', `${UNABLE_TO_VERIFY}: the compiled ${wanted.name === '' ? 'contracts do' : `${wanted.name} does`} not match the deployed code`);
  }

  return {
    pool,
    compilers,
    verify(job) {
      const key = createHash('sha256').update(JSON.stringify(job)).digest('hex');
      let pending = inFlight.get(key);
      if (pending === undefined) {
        pending = run(job).finally(() => inFlight.delete(key));
        inFlight.set(key, pending);
      }
      return pending;
    },
    compilerVersions: () => compilers.installed(),
    busy: () => pool.full,
    close: () => pool.close(),
  };
}
