/**
 * POST /smart-contracts/{address_hash_param}/verification/via/standard-input — verify from a
 * standard-JSON input: `compiler_version` and a JSON file (the first uploaded part whose type is
 * `application/json`, or named `*.json`: `files[0]`, as Blockscout's frontend uploads it), with
 * `contract_name` (`path:Name`; absent: whichever contract matches), `constructor_args` with
 * `autodetect_constructor_args`, `license_type`. A multipart form up to 20 MB. Answers as
 * lib/endpoints/verificationForm.ts (`JSON files not found`, `Error while reading JSON file`).
 */
import { addressHash } from '../params/codecs.ts';
import { VerificationMessage } from '../schema/verification.ts';
import { defineEndpoint } from './endpoint.ts';
import type { Fields, FormRead } from './verificationForm.ts';
import { answerVerification, badField, commonFields, fileText, textField, uploadedFiles, verificationBody, VERIFICATION_MAX_BODY_BYTES } from './verificationForm.ts';
import type { Address } from '../domain/records.ts';

function read(address: Address, f: Fields): FormRead {
  const compilerVersion = textField(f, 'compiler_version');
  if (compilerVersion === undefined) return badField('compiler_version', 'Missing field: compiler_version');
  const file = uploadedFiles(f).find((x) => x.contentType.toLowerCase().startsWith('application/json') || x.filename.toLowerCase().endsWith('.json'));
  if (file === undefined) return { message: 'JSON files not found' };
  const json = fileText(file);
  try {
    const parsed: unknown = JSON.parse(json);
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return { message: 'Error while reading JSON file' };
  } catch {
    return { message: 'Error while reading JSON file' };
  }
  const common = commonFields(f);
  if ('error' in common) return common.error;
  return { submission: { address, language: 'solidity', compilerVersion, contractName: textField(f, 'contract_name') ?? '', input: { kind: 'standard-json', json }, inputKind: 'standard-input', ...common } };
}

export const verifyStandardInput = defineEndpoint({
  method: 'POST',
  route: '/smart-contracts/{address_hash_param}/verification/via/standard-input',
  summary: 'Verify a contract from a standard-JSON input file (answers at once; the result is read from the contract)',
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
