/**
 * A chain to verify against, built by code: the fixture's ERC-20 (constructor arguments) and a
 * small counter compiled with npm's solc in the test process (as a developer's toolchain would),
 * written into a store as created contracts (runtime code and creation input), beside an
 * address with code nothing compiles to and an account without code. And what the verifier
 * compiles with, as on a machine without network: an empty compiler directory and a download
 * base that refuses (npm's solc serves its own version), with the version as forge names it.
 */
import { mkdtemp } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { encodeAbiParameters } from 'viem';
import type { Abi } from 'viem';
import type { Hex } from '../../lib/domain/records.ts';
import { hex } from '../../lib/domain/hex.ts';
import type { DataSink } from '../../lib/ports.ts';
import { addr } from '../ports/records.ts';
import { writeCreatedContracts } from './createdContracts.ts';
import { compilerDir, SETTINGS, standardJson, TOKEN } from '../adapters/solc/fixture.ts';

const require = createRequire(import.meta.url);

export const COUNTER = `// SPDX-License-Identifier: MIT
pragma solidity >=0.8.0;

contract Counter {
    uint256 public count;

    function increment() external {
        count += 1;
    }
}
`;

/** the single-file form's settings (lib/contracts/verifier.ts singleFileToStandardJson) with the optimizer on */
const FLAT_SETTINGS = { optimizer: { enabled: true, runs: 200 } };

export const TOKEN_ADDRESS = addr(0x70c0);
export const TOKEN_TWIN = addr(0x70c1);
export const COUNTER_ADDRESS = addr(0xc0c0);
/** code that no source compiles to */
export const ODD_ADDRESS = addr(0x0dd0);
/** an account: no code */
export const ACCOUNT = addr(0xacc0);

export interface Compiled {
  readonly abi: Abi;
  readonly creation: string;
  readonly runtime: string;
}

function compile(input: object): Record<string, Compiled> {
  const solc = require('solc') as { compile: (i: string) => string };
  const full = { ...input, settings: { ...(input as { settings?: object }).settings, outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object', 'evm.deployedBytecode.object'] } } } };
  const out = JSON.parse(solc.compile(JSON.stringify(full))) as {
    errors?: { severity: string; formattedMessage: string }[];
    contracts: Record<string, Record<string, { abi: Abi; evm: { bytecode: { object: string }; deployedBytecode: { object: string } } }>>;
  };
  const errors = (out.errors ?? []).filter((e) => e.severity === 'error');
  if (errors.length > 0) throw new Error(errors.map((e) => e.formattedMessage).join('\n'));
  const built: Record<string, Compiled> = {};
  for (const [file, byName] of Object.entries(out.contracts)) {
    for (const [name, c] of Object.entries(byName)) built[`${file}:${name}`] = { abi: c.abi, creation: c.evm.bytecode.object, runtime: c.evm.deployedBytecode.object };
  }
  return built;
}

/** The standard-JSON input the token is compiled from (as forge sends it, as text). */
export const TOKEN_INPUT = JSON.stringify(standardJson({ 'src/Token.sol': TOKEN }, SETTINGS));

export const tokenArgs = (): Hex => hex(encodeAbiParameters([{ type: 'string' }, { type: 'string' }, { type: 'uint256' }], ['Scout Token', 'SCT', 10n ** 24n]));

/** `v0.8.37+commit.xxxxxxxx`, as forge and hardhat name the build */
export function compilerVersion(): string {
  const solc = require('solc') as { version: () => string };
  return `v${solc.version().replace(/\.Emscripten.*$/, '')}`;
}

export interface VerifiableChain {
  readonly token: Compiled;
  readonly counter: Compiled;
}

/** Write the contracts into `store` (blocks 0–1) and answer what they were compiled to. */
export async function writeVerifiableChain(store: DataSink): Promise<VerifiableChain> {
  const token = compile(JSON.parse(TOKEN_INPUT) as object)['src/Token.sol:Token'] as Compiled;
  const counter = compile({ language: 'Solidity', sources: { 'Counter.sol': { content: COUNTER } }, settings: FLAT_SETTINGS })['Counter.sol:Counter'] as Compiled;
  await writeCreatedContracts(store, [
    [TOKEN_ADDRESS, token.runtime, hex(`0x${token.creation}${tokenArgs().slice(2)}`)],
    [TOKEN_TWIN, token.runtime, hex(`0x${token.creation}${tokenArgs().slice(2)}`)],
    [COUNTER_ADDRESS, counter.runtime, hex(`0x${counter.creation}`)],
    [ODD_ADDRESS, '6080604052348015600e575f80fd5b50', hex('0x6080604052')],
  ]);
  return { token, counter };
}

export { compilerDir };

/**
 * A download base that refuses every connection, as with no network: port 2 on the loopback,
 * where nothing listens (ECONNREFUSED; fetch refuses port 1 itself, as a "bad port", without
 * connecting).
 */
export const REFUSING_URL = 'http://127.0.0.1:2';

/** An empty compiler directory (a fresh temp dir; the caller removes it). */
export const emptyCompilerDir = (): Promise<string> => mkdtemp(join(tmpdir(), 'scoutkit-compilers-empty-'));

/** The verifier's compilers with no network: an empty directory, downloads on but refused. */
export const offlineCompilers = (dir: string): { readonly dir: string; readonly baseUrl: string; readonly downloadTimeoutMs: number } => ({
  dir,
  baseUrl: REFUSING_URL,
  downloadTimeoutMs: 5_000,
});
