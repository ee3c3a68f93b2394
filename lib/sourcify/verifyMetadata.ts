/**
 * `POST /v2/verify/metadata/{chainId}/{address}`: Solidity's metadata.json (as an object) and
 * its sources (path → content) → 202 `{verificationId}`, as a standard JSON submission built from
 * the metadata (lib/sourcify/metadata.ts); checked as `POST /v2/verify/…` is.
 */
import type { SourcifyAnswer, SourcifyContext } from './answer.ts';
import { v2Error, verifyRequestOf } from './answer.ts';
import { decodeBody, MetadataBodyCodec } from './codecs.ts';
import { inputOfMetadata } from './metadata.ts';
import { submitJob } from './submit.ts';
import { submissionOf } from './verify.ts';

export async function verifyMetadata(ctx: SourcifyContext, chainId: string, rawAddress: string, body: string | undefined): Promise<SourcifyAnswer> {
  const request = verifyRequestOf(ctx, chainId, rawAddress, body);
  if ('error' in request) return request.error;
  const decoded = decodeBody(MetadataBodyCodec, request.value);
  if ('message' in decoded) return v2Error(400, 'invalid_parameter', decoded.message);
  const input = inputOfMetadata(decoded.value.metadata, decoded.value.sources);
  if ('message' in input) return v2Error(400, 'invalid_parameter', input.message);
  const submission = submissionOf(request.address, input.value, 'sourcify-metadata');
  if (submission === null) return v2Error(400, 'invalid_parameter', `Unsupported language: ${decoded.value.metadata.language}`);
  return submitJob(ctx, chainId, request.chain, submission);
}
