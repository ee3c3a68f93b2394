/**
 * POST /smart-contracts/{address_hash_param}/verification/via/multi-part — verify from several
 * Solidity files (`files[0]`, `files[1]`, …, each under its file name): `compiler_version`, and
 * `is_optimization_enabled`, `optimization_runs`, `evm_version`, `libraries` (a JSON text
 * `{name: address}`), `license_type`, and (beside Blockscout's fields) `contract_name`; without
 * it, whichever compiled contract matches. A multipart form up to 20 MB. Answers as
 * lib/endpoints/verificationForm.ts.
 */
import type { StandardJsonInput } from '../contracts/verifier.ts';
import type { Address } from '../domain/records.ts';
import { addressHash } from '../params/codecs.ts';
import { VerificationMessage } from '../schema/verification.ts';
import { defineEndpoint } from './endpoint.ts';
import type { Fields, FormRead } from './verificationForm.ts';
import {
  answerVerification,
  badField,
  boolField,
  commonFields,
  fileText,
  intField,
  librariesField,
  textField,
  uploadedFiles,
  verificationBody,
  VERIFICATION_MAX_BODY_BYTES,
} from './verificationForm.ts';

function read(address: Address, f: Fields): FormRead {
  const compilerVersion = textField(f, 'compiler_version');
  if (compilerVersion === undefined) return badField('compiler_version', 'Missing field: compiler_version');
  const files = uploadedFiles(f).filter((x) => !x.filename.toLowerCase().endsWith('.json'));
  if (files.length === 0) return badField('files', 'Missing field: files (the .sol files, as files[0], files[1], …)');
  const sources: Record<string, { content: string }> = {};
  for (const [i, file] of files.entries()) sources[file.filename === '' ? `file${i}.sol` : file.filename] = { content: fileText(file) };
  const optimization = boolField(f, 'is_optimization_enabled', false);
  if (optimization === null) return badField('is_optimization_enabled', 'expected true or false');
  const runs = intField(f, 'optimization_runs', 200);
  if (runs === null) return badField('optimization_runs', 'expected a non-negative integer');
  const libraries = librariesField(f);
  if (libraries === null) return { message: 'Libraries are not valid JSON map' };
  const common = commonFields(f);
  if ('error' in common) return common.error;
  const evmVersion = textField(f, 'evm_version');
  const json: StandardJsonInput = {
    language: 'Solidity',
    sources,
    settings: { optimizer: { enabled: optimization, runs }, ...(evmVersion !== undefined && evmVersion !== 'default' ? { evmVersion } : {}) },
  };
  return {
    submission: {
      address,
      language: 'solidity',
      compilerVersion,
      contractName: textField(f, 'contract_name') ?? '',
      input: { kind: 'standard-json', json },
      inputKind: 'multi-part',
      ...(Object.keys(libraries).length > 0 ? { libraries } : {}),
      ...common,
    },
  };
}

export const verifyMultiPart = defineEndpoint({
  method: 'POST',
  route: '/smart-contracts/{address_hash_param}/verification/via/multi-part',
  summary: 'Verify a contract from several Solidity files (answers at once; the result is read from the contract)',
  path: { address_hash_param: addressHash },
  query: {},
  body: { codec: verificationBody(['compiler_version']), maxBytes: VERIFICATION_MAX_BODY_BYTES },
  response: VerificationMessage,
  handler:
    ({ chain, publish }) =>
    ({ path, body }) =>
    () =>
      answerVerification(chain, path.address_hash_param, () => read(path.address_hash_param, body), publish === undefined ? {} : { publish }),
});
