/**
 * Typed library calls, derived from the endpoint declarations: one function per endpoint whose
 * path parameters and query are checked at compile time and whose answer is typed from the
 * endpoint's response codec.
 *
 *   const api = explorerClient(explorer);
 *   const r = await api.addressTokens({ address_hash_param: asAddress('0x…') }, { type: 'ERC-20', items_count: 5 });
 *   if (r.ok) for (const b of r.body.items) console.log(b.token.symbol, b.value);
 *   else console.log(r.status, r.body);              // 404 {message}, 422 {errors} or {message}, 503 {message}
 *   if (r.ok && r.body.next_page_params) await api.addressTokens(path, r.body.next_page_params);
 *
 * Values: each parameter takes what its codec's `In` type says (lib/params/codecs.ts): numbers
 * where the codec takes integers, the enum's own values, `Address` / `TransactionHash` /
 * `BlockHash` (lib/hashes.ts) where a hash is named. They are written as the query string
 * would carry them (numbers and bigints in decimal, null as `null`, a Date in ISO 8601, a
 * list joined with commas), so a typed call answers exactly as `handle` does for that URL.
 */
import type * as t from 'io-ts';
import type { Explorer, ExplorerResponse } from './api.ts';
import type { StreamCodec } from './endpoints/endpoint.ts';
import type { ENDPOINTS } from './endpoints/index.ts';
import { ENDPOINT_NAMES } from './endpoints/index.ts';
import type { RawQuery } from './request.ts';
import type { InvalidParamsError, MessageError } from './schema/page.ts';

type Endpoints = typeof ENDPOINTS;
type Name = keyof Endpoints;

/** What the typed client takes for a parameter declared with codec `C`. */
type InputOf<C> = C extends { readonly _In?: infer In } ? Exclude<In, undefined> : never;

/** An endpoint's path parameters, all required. */
export type ClientPath<N extends Name> = { readonly [K in keyof Endpoints[N]['path']]: InputOf<Endpoints[N]['path'][K]> };

/** An endpoint's query as the caller writes it: every parameter optional, plus the API key. */
export type ClientQueryInput<N extends Name> = {
  readonly [K in keyof Endpoints[N]['query']]?: InputOf<Endpoints[N]['query'][K]>;
} & { readonly apikey?: string; readonly key?: string };

declare const pageOf: unique symbol;
/** A value of a next page's keys, as the JSON carries it (bigints are exact JSON numbers). */
export type PageValue = string | number | bigint | boolean | null;
/**
 * `next_page_params` of an answer of endpoint `N`: its keys are query parameters of `N`. Send
 * it back as the query of the next call to the same endpoint, as it came, or merged with the
 * filters of the first call (`{ ...filters, ...next_page_params }`). The brand (a type only)
 * keeps it for endpoint `N`; its values are not re-checked at compile time, the endpoint
 * checks them as it checks a URL's.
 */
export type NextPageParams<N extends Name> = { readonly [K in keyof Endpoints[N]['query']]?: PageValue } & { readonly [pageOf]: N };

/** The query a typed call takes: written by the caller, or a `next_page_params` of the same endpoint. */
export type ClientQuery<N extends Name> = ClientQueryInput<N> | NextPageParams<N>;

type ResponseCodec<N extends Name> = Endpoints[N]['response'];
type WithNextPage<B, N extends Name> = B extends { readonly next_page_params: unknown }
  ? { readonly [K in keyof B]: K extends 'next_page_params' ? NextPageParams<N> | null : B[K] }
  : B;

/**
 * The 200 body of endpoint `N`: the output type of its response codec (what the codec
 * validates), with `next_page_params` typed for sending back. At runtime it is the very value
 * `handle` answers (a JsonValue): the codecs describe it exactly, bigints only appear in
 * `next_page_params` (exact JSON numbers: serialise with `toJson`).
 */
export type ClientBody<N extends Name> = WithNextPage<t.TypeOf<ResponseCodec<N>>, N>;

/** Every error body: 422 `{errors}` (bad parameters), otherwise `{message}` (404 also a `hash` for a block that lost consensus). */
export type ClientErrorBody = t.TypeOf<typeof InvalidParamsError> | t.TypeOf<typeof MessageError>;

interface Answered {
  readonly headers: Readonly<Record<string, string>>;
}
/** A JSON answer: status 200 and the endpoint's body. */
export interface ClientSuccess<B> extends Answered {
  readonly ok: true;
  readonly status: 200;
  readonly body: B;
  readonly stream?: undefined;
}
/** A streamed answer (the CSV exports): `body` is null, read `stream` once (see ExplorerResponse.stream). */
export interface ClientStream extends Answered {
  readonly ok: true;
  readonly status: 200;
  readonly body: null;
  readonly stream: AsyncIterable<string>;
}
/** A failure: any status but 200 (422 bad parameters, 404 unknown entity or chain, 503 the store failed). */
export interface ClientFailure extends Answered {
  readonly ok: false;
  readonly status: number;
  readonly body: ClientErrorBody;
  readonly stream?: undefined;
}

/** What a typed call of endpoint `N` answers: discriminated on `ok` (`ok` ⇔ status 200). */
export type ClientAnswer<N extends Name> =
  | (ResponseCodec<N> extends StreamCodec ? ClientStream : ClientSuccess<ClientBody<N>>)
  | ClientFailure;

export type ExplorerClient = {
  readonly [N in Name]: (path: ClientPath<N>, query?: ClientQuery<N>) => Promise<ClientAnswer<N>>;
};

/** A parameter value as the query string carries it. */
function wire(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (value === null) return 'null';
  if (typeof value === 'string') return value;
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return value.map((v) => wire(v) ?? '').join(',');
  return String(value);
}

function wireAll(values: object): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(values)) {
    const s = wire(v);
    if (s !== undefined) out[k] = s;
  }
  return out;
}

/** The typed answer: the response as it is, with `ok` (status 200). */
function typed(response: ExplorerResponse): ClientSuccess<unknown> | ClientStream | ClientFailure {
  return { ok: response.status === 200, ...response } as ClientSuccess<unknown> | ClientStream | ClientFailure;
}

/** A path parameter or query value of `call`: a string, as the URL carries it. */
export type CallPath<N extends Name> = { readonly [K in keyof Endpoints[N]['path']]: string };
/** `call`'s query: the endpoint's own parameter names (and the API key), values as the query string carries them. */
export type CallQuery<N extends Name> = { readonly [K in keyof Endpoints[N]['query']]?: string | readonly string[] } & {
  readonly apikey?: string;
  readonly key?: string;
};
/** What `call` takes: `params` (required where the route has path parameters), `query`, and another chain than the default. */
export type CallRequest<N extends Name> = (keyof Endpoints[N]['path'] extends never ? { readonly params?: CallPath<N> } : { readonly params: CallPath<N> }) & {
  readonly query?: CallQuery<N>;
  readonly chainId?: string;
};

/**
 * One endpoint called by name with the URL's strings (`explorerClient` takes typed values):
 * `call(explorer, 'blocks', { query: { type: 'block' } })`. Path and query names are checked
 * against the endpoint's at compile time; the answer is typed as the client's.
 */
export async function call<N extends Name>(
  explorer: Explorer,
  endpoint: N,
  ...[request]: keyof Endpoints[N]['path'] extends never ? [request?: CallRequest<N>] : [request: CallRequest<N>]
): Promise<ClientAnswer<N>> {
  const { params = {}, query = {}, chainId = explorer.defaultChain }: { readonly params?: Readonly<Record<string, string>>; readonly query?: RawQuery; readonly chainId?: string } =
    request ?? {};
  return typed(await explorer.dispatch({ endpoint, chainId, params, query })) as ClientAnswer<N>;
}

export function explorerClient(explorer: Explorer, chainId: string = explorer.defaultChain): ExplorerClient {
  const client: Record<string, (path: object, query?: object) => Promise<ClientSuccess<unknown> | ClientStream | ClientFailure>> = {};
  for (const name of ENDPOINT_NAMES) {
    client[name] = async (path, query = {}) =>
      typed(await explorer.dispatch({ endpoint: name, chainId, form: 'instance', params: wireAll(path), query: wireAll(query) }));
  }
  // each function was built for its endpoint name. What dispatch answers for it is that endpoint's
  // handler's body, the output type of its response codec (lib/endpoints/endpoint.ts ResponseBody,
  // checked by tsc for every endpoint); ClientBody adds what no runtime value carries — hashes
  // branded by kind, next_page_params by endpoint — and dispatch's table is keyed by a string,
  // so the one claim is made here
  return client as unknown as ExplorerClient;
}
