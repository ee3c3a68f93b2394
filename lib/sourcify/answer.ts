/**
 * What every Sourcify endpoint shares: its context (the chains served, their primary stores),
 * its answer, Sourcify's error shapes (API v2: `{customCode, message, errorId}`; the legacy API:
 * `{error, message}`), the checks of a chain id and an address as Sourcify makes them, and the
 * names of a match (`exact_match` for a full match, `match` for a partial one).
 */
import { getAddress, isAddress } from 'viem';
import type { ChainConfig } from '../chain-config.ts';
import type { MatchKind, VerifiedContract } from '../contracts/records.ts';
import type { Address } from '../domain/records.ts';
import type { JsonObject, JsonValue } from '../json.ts';
import type { RawQuery } from '../request.ts';

export interface SourcifyContext {
  /** every chain served, by id: its primary config (writes and the reads that follow them) */
  readonly chains: ReadonlyMap<string, ChainConfig>;
  /** unix ms; default Date.now */
  readonly now?: () => number;
  /** told about a failure of a job or a store */
  readonly onError?: (error: unknown) => void;
  /** the live socket's `verification_result`, for a chain with a feed */
  readonly publish?: (chainId: string, topic: string, event: string, payload: JsonObject) => void;
}

/** A request to the Sourcify API: the path below the mount prefix, the query, a POST's body as text. */
export interface SourcifyRequest {
  readonly method: string;
  readonly path: string;
  readonly query: RawQuery;
  readonly body?: string;
}

export interface SourcifyAnswer {
  readonly status: number;
  readonly body: JsonValue;
}

/** Sourcify's API v2 error (apiv2/errors.ts): a code, a text and a fresh id. */
export function v2Error(status: number, customCode: string, message: string): SourcifyAnswer {
  return { status, body: { customCode, message, errorId: crypto.randomUUID() } };
}

/** The legacy API's error: `{error, message}`. */
export function v1Error(status: number, message: string, extra: JsonObject = {}): SourcifyAnswer {
  return { status, body: { error: message, message, ...extra } };
}

/** `exact_match` / `match` / null, as API v2 names a match */
export type SourcifyMatch = 'exact_match' | 'match' | null;
export const matchName = (kind: MatchKind | null): SourcifyMatch => (kind === 'full' ? 'exact_match' : kind === 'partial' ? 'match' : null);
/** `perfect` / `partial`, as the legacy API names a match */
export const legacyStatus = (kind: MatchKind): 'perfect' | 'partial' => (kind === 'full' ? 'perfect' : 'partial');

/** The three matches of a verified contract (the overall one: exact if either side is). */
export function matchesOf(contract: VerifiedContract | undefined): { readonly match: SourcifyMatch; readonly creationMatch: SourcifyMatch; readonly runtimeMatch: SourcifyMatch } {
  if (contract === undefined) return { match: null, creationMatch: null, runtimeMatch: null };
  const runtimeMatch = matchName(contract.match);
  const creationMatch = matchName(contract.creationMatch);
  const match = runtimeMatch === 'exact_match' || creationMatch === 'exact_match' ? 'exact_match' : 'match';
  return { match, creationMatch, runtimeMatch };
}

/** ISO time without milliseconds, as Sourcify writes its times */
export const isoSeconds = (ms: number): string => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

/** A served chain by its decimal id, or Sourcify's 400 `unsupported_chain`. */
export function chainOf(ctx: SourcifyContext, chainId: string): { readonly chain: ChainConfig } | { readonly error: SourcifyAnswer } {
  const chain = /^\d{1,20}$/.test(chainId) ? ctx.chains.get(chainId) : undefined;
  return chain === undefined ? { error: v2Error(400, 'unsupported_chain', `Chain ${chainId} not found`) } : { chain };
}

/** An address in any case (a mixed-case one must be its checksum), or null. */
export function parseAddress(raw: string): Address | null {
  return /^0x[0-9a-fA-F]{40}$/.test(raw) && isAddress(raw, { strict: true }) ? (raw.toLowerCase() as Address) : null;
}

/** A path's address, or Sourcify's 400 `invalid_parameter`. */
export function addressOf(raw: string): { readonly address: Address } | { readonly error: SourcifyAnswer } {
  const address = parseAddress(raw);
  return address === null ? { error: v2Error(400, 'invalid_parameter', `Invalid address: ${raw}`) } : { address };
}

export const checksum = (address: Address): string => getAddress(address);

/** The minimal contract object: matches, chain and checksummed address. */
export function contractObject(chainId: string, address: Address, contract: VerifiedContract | undefined): JsonObject {
  return { ...matchesOf(contract), chainId, address: checksum(address) };
}

/** One query parameter as a string (the first of repeated ones). */
export function queryParam(query: RawQuery, name: string): string | undefined {
  const v = query[name];
  return typeof v === 'string' ? v : v?.[0];
}

/** The body as JSON: its value, or Sourcify's 400 `invalid_json`. */
export function jsonBody(body: string | undefined): { readonly value: unknown } | { readonly error: SourcifyAnswer } {
  if (body === undefined || body.trim() === '') return { value: {} };
  try {
    return { value: JSON.parse(body) as unknown };
  } catch (error) {
    return { error: v2Error(400, 'invalid_json', `Invalid JSON body: ${error instanceof Error ? error.message : String(error)}`) };
  }
}

/** A verify request's chain, address and JSON body, checked in Sourcify's order (chain, address, body); or the first error. */
export function verifyRequestOf(
  ctx: SourcifyContext,
  chainId: string,
  rawAddress: string,
  body: string | undefined,
): { readonly chain: ChainConfig; readonly address: Address; readonly value: unknown } | { readonly error: SourcifyAnswer } {
  const chain = chainOf(ctx, chainId);
  if ('error' in chain) return chain;
  const address = addressOf(rawAddress);
  if ('error' in address) return address;
  const json = jsonBody(body);
  if ('error' in json) return json;
  return { chain: chain.chain, address: address.address, value: json.value };
}
