/**
 * `contract/verifysourcecode` (GET or POST; parameters in the query or the form body): submit a
 * contract's sources, answered at once with a GUID to poll with `checkverifystatus`; the
 * verification runs off the request path (lib/contracts/submit.ts).
 *
 * `codeformat`:
 * - `solidity-standard-json-input`: `sourceCode` is the standard-JSON input (as forge and
 *   hardhat-verify send it), `contractname` `path/File.sol:Name`;
 * - `solidity-single-file`: `sourceCode` is one (flattened) file, with `optimizationUsed`
 *   (`0/1/true/false`), `runs`, `evmversion`, `viaIR` and the libraries `libraryname1..10` /
 *   `libraryaddress1..10`.
 * `compilerversion` as solc names its builds (`v0.8.24+commit.e11b9ed9`). The constructor
 * arguments as `constructorArguments` or Etherscan's `constructorArguements` (hardhat-verify 2
 * sends only that one; forge both); none: recovered from the creation input. `licenseType`: a
 * number 1–14 or a name, default the source's SPDX identifier.
 *
 * Answers (reference §2.1): the GUID (status "1"); status "0" with `Smart-contract already
 * verified.`, `The address is not a smart contract`, `Invalid address hash`, `<param> is
 * required.`, `optimizationUsed has invalid format`, `Missing codeformat field`, `Missing
 * sourceCode or contractaddress fields`, or why verification is unavailable here.
 */
import { splitContractName } from '../../contracts/verifier.ts';
import { parseCompilerVersion } from '../../contracts/verifier.ts';
import type { Submission } from '../../contracts/submit.ts';
import { licenseTypeOfField, submitVerification } from '../../contracts/submit.ts';
import type { Address } from '../../domain/records.ts';
import type { EtherscanAction, EtherscanAnswer, EtherscanQuery } from '../action.ts';
import type { EtherscanParam } from '../paramDocs.ts';
import { isAddress, param } from '../params.ts';
import { librariesParam, refuse, submitted } from '../verification.ts';

const STANDARD = 'solidity-standard-json-input';
const SINGLE = 'solidity-single-file';

const PARAMS: readonly EtherscanParam[] = [
  { name: 'codeformat', description: 'How `sourceCode` is given', required: true, enum: [STANDARD, SINGLE] },
  { name: 'contractaddress', description: 'The contract to verify', required: true, example: 'contract' },
  { name: 'sourceCode', description: 'The standard-JSON input (as text), or the single (flattened) file', required: true },
  { name: 'contractname', description: '`path/File.sol:Name` (standard JSON) or `Name`', required: true },
  { name: 'compilerversion', description: 'The solc build, e.g. `v0.8.24+commit.e11b9ed9`', required: true },
  { name: 'constructorArguments', description: 'ABI-encoded constructor arguments (hex); also read as `constructorArguements`; absent: recovered from the creation input' },
  { name: 'optimizationUsed', description: 'single file: `1`/`0` (or `true`/`false`)', enum: ['0', '1', 'true', 'false'] },
  { name: 'runs', description: 'single file: optimizer runs (default 200)' },
  { name: 'evmversion', description: 'single file: the EVM version (default: the compiler\'s)' },
  { name: 'viaIR', description: 'single file: compile through the IR', enum: ['true', 'false'] },
  { name: 'licenseType', description: 'A license number (1–14) or name; default the SPDX identifier of the source' },
  { name: 'libraryname1', description: 'single file: a linked library\'s name (up to `libraryname10`)' },
  { name: 'libraryaddress1', description: 'single file: its address (up to `libraryaddress10`)' },
];

const BOOL: Readonly<Record<string, boolean>> = { '1': true, true: true, '0': false, false: false };

/** The raw text of a parameter (sources are not trimmed: a file's bytes are in its metadata hash). */
const raw = (query: EtherscanQuery, name: string): string | undefined => {
  const v = query[name] ?? query[name.toLowerCase()];
  return v === undefined || v.trim() === '' ? undefined : v;
};

function readSubmission(query: EtherscanQuery): { readonly submission: Submission } | { readonly error: EtherscanAnswer } {
  const format = param(query, 'codeformat');
  if (format !== STANDARD && format !== SINGLE) return { error: refuse('Missing codeformat field') };
  const addressText = param(query, 'contractaddress');
  const source = raw(query, 'sourceCode');
  if (format === STANDARD && (addressText === undefined || source === undefined)) return { error: refuse('Missing sourceCode or contractaddress fields') };
  if (addressText === undefined) return { error: refuse('contractaddress is required.') };
  if (!isAddress(addressText)) return { error: refuse('Invalid address hash') };
  const contractName = param(query, 'contractname');
  if (contractName === undefined) return { error: refuse('contractname is required.') };
  const compilerVersion = param(query, 'compilerversion');
  if (compilerVersion === undefined) return { error: refuse('compilerversion is required.') };
  if (parseCompilerVersion(compilerVersion) === null) return { error: refuse(`Invalid compiler version ${JSON.stringify(compilerVersion)}: expected e.g. v0.8.24+commit.e11b9ed9`) };
  if (source === undefined) return { error: refuse('sourceCode is required.') };
  const licenseText = param(query, 'licenseType');
  const licenseType = licenseText === undefined ? undefined : licenseTypeOfField(licenseText);
  if (licenseText !== undefined && licenseType === undefined) return { error: refuse('licenseType has invalid format') };
  const constructorArguments = param(query, 'constructorArguments') ?? param(query, 'constructorArguements');
  if (constructorArguments !== undefined && !/^(0x)?([0-9a-fA-F]{2})*$/.test(constructorArguments)) return { error: refuse('constructorArguments has invalid format (ABI-encoded hex)') };
  const address = addressText.toLowerCase() as Address;
  const common = {
    address,
    language: 'solidity' as const,
    compilerVersion,
    ...(constructorArguments !== undefined ? { constructorArguments } : {}),
    ...(licenseType !== undefined ? { licenseType } : {}),
  };
  if (format === STANDARD) return { submission: { ...common, contractName, input: { kind: 'standard-json', json: source }, inputKind: 'etherscan-standard-json' } };

  const optimizationText = param(query, 'optimizationUsed');
  if (optimizationText === undefined) return { error: refuse('optimizationUsed is required.') };
  const optimization = BOOL[optimizationText.toLowerCase()];
  if (optimization === undefined) return { error: refuse('optimizationUsed has invalid format') };
  const runsText = param(query, 'runs');
  const runs = runsText === undefined ? 200 : Number(runsText);
  if (!Number.isSafeInteger(runs) || runs < 0) return { error: refuse('runs has invalid format') };
  const evmVersion = param(query, 'evmversion') ?? param(query, 'evmVersion');
  const viaIR = BOOL[(param(query, 'viaIR') ?? 'false').toLowerCase()] === true;
  const libraries = librariesParam(query);
  if ('error' in libraries) return libraries;
  return {
    submission: {
      ...common,
      // one file: it is named after the contract (as Blockscout names flattened code), whatever path was sent
      contractName: splitContractName(contractName).name,
      input: { kind: 'single-file', source, optimization, runs, ...(evmVersion !== undefined ? { evmVersion } : {}), ...(viaIR ? { viaIR } : {}) },
      inputKind: 'etherscan-single-file',
      ...(Object.keys(libraries.value).length > 0 ? { libraries: libraries.value } : {}),
    },
  };
}

export const verifysourcecode: EtherscanAction = {
  module: 'contract',
  action: 'verifysourcecode',
  summary: "Submit a contract's source code for verification (answers a GUID for checkverifystatus)",
  params: PARAMS,
  async run(ctx, query) {
    const read = readSubmission(query);
    if ('error' in read) return read.error;
    return submitted(await submitVerification(ctx.chain, read.submission, ctx.onError === undefined ? {} : { onError: ctx.onError }));
  },
};
