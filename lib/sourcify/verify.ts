/**
 * `POST /v2/verify/{chainId}/{address}`: a standard JSON input, its compiler version and the
 * contract's identifier (`path/File.sol:Name`) → 202 `{verificationId}`, a job of the one
 * verification flow (lib/sourcify/submit.ts). Checked as Sourcify checks, in its order: the chain
 * (400 `unsupported_chain`), the address (400 `invalid_parameter`), the body (400
 * `invalid_json`, `invalid_parameter`). The creation transaction hash is accepted and not needed:
 * the indexer knows how each contract was created.
 */
import type { JobInputKind } from '../contracts/records.ts';
import type { Address } from '../domain/records.ts';
import type { Submission } from '../contracts/submit.ts';
import type { SourcifyAnswer, SourcifyContext } from './answer.ts';
import { v2Error, verifyRequestOf } from './answer.ts';
import type { VerifyBody } from './codecs.ts';
import { decodeBody, VerifyBodyCodec } from './codecs.ts';
import { submitJob } from './submit.ts';

/** Solidity and Yul compile with solc; Vyper with vyper */
const LANGUAGES: Readonly<Record<string, Submission['language']>> = { solidity: 'solidity', yul: 'solidity', vyper: 'vyper' };

export async function verify(ctx: SourcifyContext, chainId: string, rawAddress: string, body: string | undefined): Promise<SourcifyAnswer> {
  const request = verifyRequestOf(ctx, chainId, rawAddress, body);
  if ('error' in request) return request.error;
  const decoded = decodeBody(VerifyBodyCodec, request.value);
  if ('message' in decoded) return v2Error(400, 'invalid_parameter', decoded.message);
  const submission = submissionOf(request.address, decoded.value);
  if (submission === null) return v2Error(400, 'invalid_parameter', `Unsupported language: ${decoded.value.stdJsonInput.language} (Solidity, Yul or Vyper)`);
  return submitJob(ctx, chainId, request.chain, submission);
}

/** The submission of a standard JSON body; null for a language no compiler here speaks. */
export function submissionOf(
  address: Address,
  body: Pick<VerifyBody, 'stdJsonInput' | 'compilerVersion' | 'contractIdentifier'>,
  inputKind: Extract<JobInputKind, `sourcify-${string}`> = 'sourcify-standard-json',
): Submission | null {
  const language = LANGUAGES[body.stdJsonInput.language.toLowerCase()];
  if (language === undefined) return null;
  return { address, language, input: { kind: 'standard-json', json: body.stdJsonInput }, compilerVersion: body.compilerVersion, contractName: body.contractIdentifier, inputKind };
}
