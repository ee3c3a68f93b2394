/**
 * `GET /v2/contract/{chainId}/{address}`: the contract at an address as Sourcify answers it —
 * verified: 200 with its matches, `verifiedAt`, `matchId` and the fields selected (`fields`) or
 * not left out (`omit`, lib/sourcify/fields.ts); not verified: 404 with the contract object and
 * null matches (hardhat-verify 3 reads it). A contract verified by any way in (Etherscan's,
 * API v2's, Sourcify's) answers, at its address or a bytecode twin's. Unknown query
 * parameters, `fields` with `omit`, or an unknown field: 400 `invalid_parameter`.
 */
import type { SourcifyAnswer, SourcifyContext } from './answer.ts';
import { addressOf, chainOf, contractObject, isoSeconds, queryParam, v2Error } from './answer.ts';
import type { RawQuery } from '../request.ts';
import { allFields, parseSelectors, selectFields } from './fields.ts';
import { lookupAddress } from './lookup.ts';
import { unknownParam } from './query.ts';

export async function contract(ctx: SourcifyContext, chainId: string, rawAddress: string, query: RawQuery): Promise<SourcifyAnswer> {
  const chain = chainOf(ctx, chainId);
  if ('error' in chain) return chain.error;
  const address = addressOf(rawAddress);
  if ('error' in address) return address.error;
  const unknown = unknownParam(query, ['fields', 'omit']);
  if (unknown !== undefined) return v2Error(400, 'invalid_parameter', `Unknown query parameter: ${unknown}`);
  const fields = queryParam(query, 'fields');
  const omit = queryParam(query, 'omit');
  if (fields !== undefined && omit !== undefined) return v2Error(400, 'invalid_parameter', 'Cannot specify both fields and omit');
  const selectors = fields !== undefined ? parseSelectors(fields, true) : omit !== undefined ? parseSelectors(omit, false) : { value: [] };
  if ('message' in selectors) return v2Error(400, 'invalid_parameter', selectors.message);

  const { record, contract: verified } = await lookupAddress(chain.chain, address.address);
  const base = contractObject(chainId, address.address, verified);
  if (verified === undefined || record === null) return { status: 404, body: base };
  const selected =
    fields === undefined && omit === undefined ? {} : selectFields(allFields(verified, record), omit !== undefined ? { omit: selectors.value } : { fields: selectors.value });
  return { status: 200, body: { ...base, verifiedAt: isoSeconds(verified.verifiedAt), matchId: String(verified.id), ...selected } };
}
