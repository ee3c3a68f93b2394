/**
 * A chain with contracts linked to a library, built by code: the library MathLib (the solc
 * fixture's LIBRARY) created at four addresses, and its user UsesLib compiled with npm's solc in
 * the test process and linked to each (four codes: a verified one would make a user linked to
 * the same library a bytecode twin), written into a store as created contracts — one user per
 * verification path that names its libraries differently: standard JSON's `settings.libraries`
 * (as forge `--libraries` and hardhat send it), Etherscan's `libraryname1`/`libraryaddress1`,
 * API v2's flattened-code `libraries` object, and a build linked by solc from `settings.libraries`.
 */
import type { Address } from '../../lib/domain/records.ts';
import { hex } from '../../lib/domain/hex.ts';
import type { DataSink } from '../../lib/ports.ts';
import type { StandardJsonInput } from '../../lib/contracts/verifier.ts';
import { addr } from '../ports/records.ts';
import { type CreatedContract, writeCreatedContracts } from './createdContracts.ts';
import { buildOutput, link, LIBRARY, SETTINGS, standardJson } from '../adapters/solc/fixture.ts';

export { LIBRARY };

/** the paths a user is verified by, each its own library address */
export type LinkedPath = 'standard-json' | 'single-file' | 'flattened-code' | 'standard-input';
export const LINKED_PATHS: readonly LinkedPath[] = ['standard-json', 'single-file', 'flattened-code', 'standard-input'];

export interface LinkedContract {
  /** the library's address */
  readonly library: Address;
  /** the user's address */
  readonly user: Address;
}

/** the single-file forms compile the file as `<contract name>.sol`: the user is built so (a full match) */
const singleFile = (path: LinkedPath): boolean => path === 'single-file' || path === 'flattened-code';

/** The standard JSON the users compile from, with `settings.libraries` linking MathLib at `library`. */
export const linkedInput = (library: Address): StandardJsonInput =>
  standardJson({ 'src/MathLib.sol': LIBRARY }, { ...SETTINGS, libraries: { 'src/MathLib.sol': { MathLib: library } } });

interface Codes {
  readonly creation: string;
  readonly runtime: string;
}

function compiled(input: StandardJsonInput, file: string, name: string): Codes {
  const { output } = buildOutput(input);
  const c = (output['contracts'] as Record<string, Record<string, { evm: { bytecode: { object: string }; deployedBytecode: { object: string } } }>>)[file]?.[name];
  if (c === undefined) throw new Error(`${file}:${name} not compiled`);
  return { creation: c.evm.bytecode.object, runtime: c.evm.deployedBytecode.object };
}

/** Write the libraries and their users into `store` (blocks 0–1); the addresses by path. */
export async function writeLinkedChain(store: DataSink): Promise<Readonly<Record<LinkedPath, LinkedContract>>> {
  const lib = compiled(standardJson({ 'src/MathLib.sol': LIBRARY }), 'src/MathLib.sol', 'MathLib');
  const flat = compiled(standardJson({ 'UsesLib.sol': LIBRARY }), 'UsesLib.sol', 'UsesLib');
  const created: CreatedContract[] = [];
  const contracts = {} as Record<LinkedPath, LinkedContract>;
  LINKED_PATHS.forEach((path, i) => {
    const library = addr(0x11b0 + i);
    const user = addr(0x05e0 + i);
    // a build that linked through settings.libraries, or an unlinked one linked at deployment (same code)
    const codes = singleFile(path) ? flat : compiled(linkedInput(library), 'src/MathLib.sol', 'UsesLib');
    created.push([library, lib.runtime, hex(`0x${lib.creation}`)], [user, link(codes.runtime, library), hex(`0x${link(codes.creation, library)}`)]);
    contracts[path] = { library, user };
  });
  await writeCreatedContracts(store, created);
  return contracts;
}
