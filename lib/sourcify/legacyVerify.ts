/**
 * The legacy `POST /` (also `POST /verify`), hardhat-verify 2's: `{address, chain, files,
 * chosenContract?}`, files by name with `metadata.json` among them. Synchronous, as Sourcify's:
 * the job of the one verification flow is waited for (up to LEGACY_WAIT_MS), then 200
 * `{result: [{address, chainId, status: "perfect"|"partial"}]}`; a contract fully verified
 * already answers so at once. Errors in the legacy shape: 400 `{error, message}` (bad input, a
 * failed verification; several metadata files without `chosenContract` add `contractsToChoose`).
 */
import type { ChainConfig } from '../chain-config.ts';
import { submitVerification, verificationStatus } from '../contracts/submit.ts';
import type { Address } from '../domain/records.ts';
import type { SourcifyAnswer, SourcifyContext } from './answer.ts';
import { checksum, jsonBody, legacyStatus, parseAddress, v1Error } from './answer.ts';
import type { Metadata } from './codecs.ts';
import { decodeBody, LegacyVerifyBodyCodec, MetadataCodec } from './codecs.ts';
import { jobError } from './job.ts';
import { lookupAddress } from './lookup.ts';
import { inputOfMetadata } from './metadata.ts';
import { submissionOf } from './verify.ts';

/** how long the request waits for its job */
export const LEGACY_WAIT_MS = 60_000;

export async function legacyVerify(ctx: SourcifyContext, body: string | undefined): Promise<SourcifyAnswer> {
  const json = jsonBody(body);
  if ('error' in json) return v1Error(400, 'Invalid JSON body');
  const decoded = decodeBody(LegacyVerifyBodyCodec, json.value);
  if ('message' in decoded) return v1Error(400, decoded.message);
  const { files, chosenContract } = decoded.value;
  const chainId = String(decoded.value.chain ?? decoded.value.chainId ?? '');
  const chain = ctx.chains.get(chainId);
  if (chain === undefined) return v1Error(400, `Chain ${chainId} not supported for verification`);
  const address = parseAddress(decoded.value.address);
  if (address === null) return v1Error(400, `Invalid address: ${decoded.value.address}`);
  const metadatas = metadataFiles(files);
  if (metadatas.length === 0) return v1Error(400, 'Metadata file not found. Did you include "metadata.json"?');
  const index = chosenContract === undefined ? (metadatas.length === 1 ? 0 : -1) : Number(chosenContract);
  const metadata = metadatas[index];
  if (metadata === undefined) {
    const contractsToChoose = metadatas.map((m) => Object.entries(m.settings.compilationTarget).map(([path, name]) => ({ name, path }))[0] ?? null);
    return v1Error(400, 'Detected multiple contracts: choose one with chosenContract', { contractsToChoose });
  }
  const input = inputOfMetadata(metadata, files);
  if ('message' in input) return v1Error(400, input.message);
  const submission = submissionOf(address, input.value, 'sourcify-metadata');
  if (submission === null) return v1Error(400, `Unsupported language: ${metadata.language}`);
  const outcome = await submitVerification(chain, submission, ctx.onError === undefined ? {} : { onError: ctx.onError });
  switch (outcome.kind) {
    case 'already-verified':
      return result(chainId, chain, address);
    case 'not-a-contract':
      return v1Error(400, `Contract ${checksum(address)} is not deployed on chain ${chainId}`);
    case 'unavailable':
      return v1Error(503, outcome.message);
    case 'busy':
      return v1Error(429, outcome.message);
    case 'queued': {
      const status = await verificationStatus(chain, outcome.job.uid, { waitMs: LEGACY_WAIT_MS });
      if (status.kind === 'unknown') return v1Error(400, 'The verification job was lost');
      if (status.job.state === 'pending') return v1Error(503, 'The verification is still running: ask check-all-by-addresses later');
      if (status.job.state === 'fail') return v1Error(400, String(jobError(status.job.message)['message']));
      return result(chainId, chain, address);
    }
  }
}

/** Every file that reads as Solidity metadata (a compiler, a compilation target), in the order sent. */
function metadataFiles(files: Readonly<Record<string, string>>): Metadata[] {
  const out: Metadata[] = [];
  for (const content of Object.values(files)) {
    if (!content.trimStart().startsWith('{')) continue;
    let parsed: unknown;
    try {
      parsed = JSON.parse(content);
    } catch {
      continue;
    }
    const decoded = decodeBody(MetadataCodec, parsed);
    if ('value' in decoded) out.push(decoded.value);
  }
  return out;
}

async function result(chainId: string, chain: ChainConfig, address: Address): Promise<SourcifyAnswer> {
  const { contract } = await lookupAddress(chain, address);
  if (contract === undefined) return v1Error(400, 'The verification passed but no verified contract is stored');
  return { status: 200, body: { result: [{ address: checksum(address), chainId, status: legacyStatus(contract.match), contractName: contract.name, libraryMap: { ...contract.libraries } }] } };
}
