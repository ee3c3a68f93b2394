/**
 * `scoutkit verify --db <url> --address <0x…> (--artifacts <dir> | --standard-json <file>
 * --contract <path:Name> --compiler-version <v>)`: verify one indexed contract and save it into
 * the store's contract store — from a project's build info (no compile), or by compiling the
 * standard JSON with solc-js (the compiler directory, as the server's verification uses).
 */
import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { verifyContract } from '../../lib/contracts/verifyContract.ts';
import type { CodeMatcher, VerifyContractResult } from '../../lib/contracts/verifyContract.ts';
import type { Address } from '../../lib/domain/records.ts';
import { loadArtifacts, resultLine } from '../artifacts.ts';
import { openStore } from '../stores.ts';

export const VERIFY_HELP = `Usage: scoutkit verify --db <url> --address <0x…> --artifacts <dir>
       scoutkit verify --db <url> --address <0x…> --standard-json <file> --contract <path:Name> --compiler-version <v>

Verify one contract the store has indexed and save its sources and ABI (served at once by
/api/v2/smart-contracts/<address> and the Etherscan-compatible getabi/getsourcecode).

Options:
  --db <url>                the store (sqlite:<path>, postgres://...)
  --address <0x…>           the contract
  --artifacts <dir>         a Foundry (out/build-info, needs build_info = true or --build-info) or
                            Hardhat (artifacts/build-info) project: matched without compiling
                            (repeatable)
  --standard-json <file>    solc's standard JSON input (compiled with solc-js), with:
  --contract <path:Name>    the contract's name, e.g. src/Token.sol:Token
  --compiler-version <v>    e.g. v0.8.26+commit.8a97fa7a
  --constructor-args <hex>  ABI-encoded (default: read off the creation input)
  --library <Name=0x…>      a linked library's address (repeatable; default: read off the code)
  --compilers <dir>         solc-js builds (default ~/.cache/scoutkit/compilers); npm's solc
                            serves its own version; another is downloaded from
                            binaries.soliditylang.org ($SCOUTKIT_SOLC_BINARIES)
  --offline                 never download a compiler
  -h, --help                this help

Exit code 0 when verified, 1 when not (the reason is printed).`;

export interface VerifyArgs {
  readonly db: string;
  readonly address: Address;
  readonly artifacts?: readonly string[];
  readonly standardJson?: string;
  readonly contract?: string;
  readonly compilerVersion?: string;
  readonly constructorArgs?: string;
  readonly libraries: Readonly<Record<string, Address>>;
  readonly compilers?: string;
  readonly offline: boolean;
}

export function parseVerifyArgs(args: readonly string[]): VerifyArgs {
  const { values } = parseArgs({
    args: [...args],
    strict: true,
    allowPositionals: false,
    options: {
      db: { type: 'string' },
      address: { type: 'string' },
      artifacts: { type: 'string', multiple: true },
      'standard-json': { type: 'string' },
      contract: { type: 'string' },
      'compiler-version': { type: 'string' },
      'constructor-args': { type: 'string' },
      library: { type: 'string', multiple: true },
      compilers: { type: 'string' },
      offline: { type: 'boolean' },
    },
  });
  if (values.db === undefined) throw new Error('give --db <url> (the store that indexed the contract)');
  const address = values.address?.toLowerCase();
  if (address === undefined || !/^0x[0-9a-f]{40}$/.test(address)) throw new Error(`--address: expected a 0x address, got ${JSON.stringify(values.address ?? '')}`);
  const artifacts = values.artifacts ?? [];
  const json = values['standard-json'];
  if ((artifacts.length > 0) === (json !== undefined)) throw new Error('give either --artifacts <dir> or --standard-json <file> (with --contract and --compiler-version)');
  if (json !== undefined && (values.contract === undefined || values['compiler-version'] === undefined)) {
    throw new Error('--standard-json needs --contract <path:Name> and --compiler-version <v>');
  }
  const args_ = values['constructor-args'];
  if (args_ !== undefined && !/^(0x)?([0-9a-fA-F]{2})*$/.test(args_)) throw new Error('--constructor-args: expected hex');
  const libraries: Record<string, Address> = {};
  for (const spec of values.library ?? []) {
    const m = /^(.+)=(0x[0-9a-fA-F]{40})$/.exec(spec);
    if (m?.[1] === undefined || m[2] === undefined) throw new Error(`--library: expected <Name>=<0x address>, got ${JSON.stringify(spec)}`);
    libraries[m[1]] = m[2].toLowerCase() as Address;
  }
  return {
    db: values.db,
    address: address as Address,
    ...(artifacts.length > 0 ? { artifacts } : {}),
    ...(json !== undefined ? { standardJson: json } : {}),
    ...(values.contract !== undefined ? { contract: values.contract } : {}),
    ...(values['compiler-version'] !== undefined ? { compilerVersion: values['compiler-version'] } : {}),
    ...(args_ !== undefined ? { constructorArgs: args_ } : {}),
    libraries,
    ...(values.compilers !== undefined ? { compilers: values.compilers } : {}),
    offline: values.offline ?? false,
  };
}

export interface VerifyCommandIo {
  readonly stdout?: { write(text: string): void };
}

/** Run the command; resolves to the exit code. */
export async function runVerifyCommand(args: readonly string[], io: VerifyCommandIo = {}): Promise<number> {
  const options = parseVerifyArgs(args);
  const stdout = io.stdout ?? process.stdout;
  let close = async (): Promise<void> => {};
  let matcher: CodeMatcher;
  if (options.artifacts !== undefined) {
    const artifacts = await loadArtifacts(options.artifacts);
    stdout.write(`artifacts: ${artifacts.contracts.length} compiled contract(s) from ${artifacts.files} build-info file(s) in ${artifacts.dirs.join(', ')}\n`);
    matcher = artifacts.matcher;
  } else {
    const text = await readFile(options.standardJson ?? '', 'utf8');
    // the compiling verifier loads solc-js (an optional peer) only on this path
    const solc = await import('../../adapters/solc/index.ts').catch((e: unknown) => {
      throw new Error(`--standard-json compiles with solc-js: install it (npm i solc): ${e instanceof Error ? e.message : String(e)}`);
    });
    const verifier = solc.createSolcVerifier({ compilers: { ...(options.compilers !== undefined ? { dir: options.compilers } : {}), download: !options.offline }, size: 1 });
    close = () => verifier.close();
    const job = {
      language: 'solidity' as const,
      input: { kind: 'standard-json' as const, json: text },
      compilerVersion: options.compilerVersion ?? '',
      contractName: options.contract ?? '',
      libraries: options.libraries,
      ...(options.constructorArgs !== undefined ? { constructorArguments: options.constructorArgs } : {}),
    };
    matcher = {
      codeFormat: 'standard-json',
      match: (deployed, creation) => verifier.verify({ ...job, deployedCode: deployed, ...(creation === null ? {} : { creationInput: creation }) }),
    };
  }
  const store = await openStore(options.db);
  let result: VerifyContractResult;
  try {
    result = await verifyContract({ store: store.source, contracts: store.contracts }, options.address, matcher);
  } finally {
    await close();
    await store.close();
  }
  stdout.write(`${resultLine(result)}\n`);
  return result.status === 'verified' ? 0 : 1;
}
