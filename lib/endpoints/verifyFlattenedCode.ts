/**
 * POST /smart-contracts/{address_hash_param}/verification/via/flattened-code — verify one
 * (flattened) Solidity file: `compiler_version`, `source_code` (required), and
 * `is_optimization_enabled` (false), `optimization_runs` (200), `evm_version` ("default"),
 * `contract_name`, `constructor_args` with `autodetect_constructor_args` (true: recovered from
 * the creation input), `libraries` (`{name: address}`), `license_type`. JSON (as Blockscout's
 * frontend sends it) or a form, up to 20 MB. Answers as lib/endpoints/verificationForm.ts.
 */
import { addressHash } from '../params/codecs.ts';
import { VerificationMessage } from '../schema/verification.ts';
import { defineEndpoint } from './endpoint.ts';
import type { Fields, FormRead } from './verificationForm.ts';
import { answerVerification, badField, boolField, commonFields, intField, librariesField, textField, verificationBody, VERIFICATION_MAX_BODY_BYTES } from './verificationForm.ts';
import type { Address } from '../domain/records.ts';

function read(address: Address, f: Fields): FormRead {
  const compilerVersion = textField(f, 'compiler_version');
  const source = typeof f['source_code'] === 'string' ? f['source_code'] : '';
  if (compilerVersion === undefined) return badField('compiler_version', 'Missing field: compiler_version');
  if (source.trim() === '') return badField('source_code', 'Empty contract source code.');
  const language = textField(f, 'language');
  if (language !== undefined && language.toLowerCase() === 'yul') return badField('language', 'Yul is not verified here: only Solidity');
  const optimization = boolField(f, 'is_optimization_enabled', false);
  if (optimization === null) return badField('is_optimization_enabled', 'expected true or false');
  const runs = intField(f, 'optimization_runs', 200);
  if (runs === null) return badField('optimization_runs', 'expected a non-negative integer');
  const libraries = librariesField(f);
  if (libraries === null) return { message: 'Libraries are not valid JSON map' };
  const common = commonFields(f);
  if ('error' in common) return common.error;
  const evmVersion = textField(f, 'evm_version');
  return {
    submission: {
      address,
      language: 'solidity',
      compilerVersion,
      contractName: textField(f, 'contract_name') ?? '',
      input: { kind: 'single-file', source, optimization, runs, ...(evmVersion !== undefined ? { evmVersion } : {}) },
      inputKind: 'flattened-code',
      ...(Object.keys(libraries).length > 0 ? { libraries } : {}),
      ...common,
    },
  };
}

export const verifyFlattenedCode = defineEndpoint({
  method: 'POST',
  route: '/smart-contracts/{address_hash_param}/verification/via/flattened-code',
  summary: 'Verify a contract from one flattened Solidity file (answers at once; the result is read from the contract)',
  path: { address_hash_param: addressHash },
  query: {},
  body: { codec: verificationBody(['compiler_version', 'source_code']), maxBytes: VERIFICATION_MAX_BODY_BYTES },
  response: VerificationMessage,
  handler:
    ({ chain, publish }) =>
    ({ path, body }) =>
    () =>
      answerVerification(chain, path.address_hash_param, () => read(path.address_hash_param, body), publish === undefined ? {} : { publish }),
});
