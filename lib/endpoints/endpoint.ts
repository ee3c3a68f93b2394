/**
 * What an endpoint module declares: its method and route, its path, query (and body) codecs,
 * the codec of its answer, and its handler `(deps) => (input) => TaskEither<ApiError, body>`, the
 * body typed by the answer's codec (`ResponseBody`). The
 * registry (./index.ts) derives the route table, the endpoint names, the typed client and
 * the OpenAPI document from these declarations.
 */
import type * as TE from 'fp-ts/lib/TaskEither.js';
import type * as t from 'io-ts';
import type { ChainConfig } from '../chain-config.ts';
import type { ApiError } from '../errors.ts';
import type { JsonObject, JsonValue } from '../json.ts';
import type { Decoded, ParamSpec } from '../params/decode.ts';
import type { ApiVersion } from '../paths.ts';
import type { DataSource } from '../ports.ts';
import type { RenderOptions } from '../render/context.ts';
import type { ApiForm, HttpMethod } from '../request.ts';
import type { StreamedBody } from '../streamed.ts';
import type { LiveHub } from '../live/hub.ts';

export interface EndpointDeps {
  /** the chain's config (its store, its node, and what the next ports add) */
  readonly chain: ChainConfig;
  /** the chain's store: `chain.store` */
  readonly ds: DataSource;
  readonly chainId: string;
  /** every configured chain id */
  readonly chainIds: readonly string[];
  readonly form: ApiForm;
  readonly render: RenderOptions;
  /** rows per CSV export (default CSV_EXPORT_LIMIT, lib/csv/export.ts) */
  readonly csvExportLimit?: number;
  /** the explorer's clock (ms since the epoch): "today", "the last 24 h" (CreateExplorerOptions.now) */
  readonly now: () => number;
  /** the chain's live hub (a chain with a change feed): what `/events` streams */
  readonly live?: LiveDeps;
  /**
   * Tell the chain's live subscribers (socket, `/events`, `explorer.subscribe`) of this process
   * an event no store write carries (a verification job's result); given to writes (POST) on
   * chains with a change feed.
   */
  readonly publish?: (topic: string, event: string, payload: JsonObject) => void;
}

/** What live answers need: the chain's hub and the caps of a stream. */
export interface LiveDeps {
  readonly hub: LiveHub;
  /** most topics one connection may follow */
  readonly maxTopics: number;
  readonly heartbeatMs: number;
  /** messages waiting for a slow client before it is ended */
  readonly maxQueued: number;
}

/** What a handler answers: a JSON body, or (endpoints that declare `produces`) a streamed one. */
export type EndpointBody = JsonValue | StreamedBody;

/** The response codec of a streamed answer (lib/csv/export.ts CsvText, events.ts EventStream): its media type. */
export interface StreamCodec {
  readonly mediaType: string;
}

/**
 * What the handler of an endpoint whose response codec is `R` answers: a streamed body where
 * `R` describes a stream, else `R`'s output type (the JSON the codec describes).
 */
export type ResponseBody<R extends t.Mixed> = R extends StreamCodec ? StreamedBody : t.OutputOf<R>;

/** The multichain form's body, for an endpoint that declares `multichainResponse` `M`. */
export type MultichainBody<M extends t.Mixed> = [M] extends [never] ? never : t.OutputOf<M>;

/** A path below `/api/v2`, parameters in braces: `/blocks/{block_hash_or_number_param}`. */
export type RouteTemplate = `/${string}`;

/**
 * A route's request body: what decodes it and how large it may be. The host parses JSON,
 * urlencoded and multipart bodies (see `RequestBody` for the value the codec gets) within
 * `maxBytes`, only for routes that declare one.
 */
export interface BodySpec<B> {
  /** decodes the parsed body; its failures are the 422 (pointers into the body) */
  readonly codec: t.Decoder<unknown, B>;
  /** the largest body read, in bytes: a larger one is 413 */
  readonly maxBytes: number;
}

/** What a handler receives: the decoded path and query, and the decoded body of a route that declares one. */
export type EndpointInput<P extends ParamSpec, Q extends ParamSpec, B = undefined> = Decoded<P, Q> & { readonly body: B };

export interface Endpoint<P extends ParamSpec, Q extends ParamSpec, B = undefined, R extends t.Mixed = t.Mixed, M extends t.Mixed = never> {
  /** default GET (HEAD is answered as GET); the route table is keyed by method and route */
  readonly method?: HttpMethod;
  /** the path below `/api/v2` (both forms), with the official documents' parameter names */
  readonly route: RouteTemplate;
  /** the request body, for a route that reads one (a GET route never does) */
  readonly body?: BodySpec<B>;
  /** `v1`: the route is below `/api/v1` instead (the official documents' `/v1/search`, Blockscout's v1 alias) */
  readonly api?: ApiVersion;
  /** one line for the OpenAPI document */
  readonly summary: string;
  readonly path: P;
  readonly query: Q;
  /** the 200 body (io-ts codec; documents and validates the answer, and types the typed client's answer) */
  readonly response: R;
  /** the 200 body of the multichain form, where it differs (Pro API 0.5.0) */
  readonly multichainResponse?: M;
  /** also answers 422 `{message}` (not only bad parameters): when, in a few words */
  readonly unprocessableMessage?: string;
  /**
   * the answer needs an optional query a store may lack (lib/ports/dataSource.ts OptionalQuery):
   * what the answer is, e.g. `Top accounts`; from a store without it the endpoint answers 501
   * `{"message": "<this> not available from this store"}` (lib/errors.ts queryUnavailable)
   */
  readonly mayLack?: string;
  /** query parameters that must be present (a missing one → 422 `Missing field: <name>`) */
  readonly requiredQuery?: readonly (keyof Q & string)[];
  /**
   * the answer depends on the clock (time windows): cached answers are kept for the current
   * minute of the clock only
   */
  readonly clock?: true;
  /** not an explorer endpoint (e.g. the OpenAPI document itself): left out of the document */
  readonly meta?: true;
  /** the 200 body is not JSON but a streamed file of this media type (`response` then describes it as a string) */
  readonly produces?: 'text/csv' | 'text/event-stream';
  readonly handler: (deps: EndpointDeps) => (input: EndpointInput<P, Q, B>) => TE.TaskEither<ApiError, ResponseBody<R> | MultichainBody<M>>;
}

/** An endpoint with its parameter types erased, as dispatch sees it (see `erased`). */
export type AnyEndpoint = Omit<Endpoint<ParamSpec, ParamSpec, unknown, t.Mixed, t.Mixed>, 'handler' | 'requiredQuery'> & {
  readonly requiredQuery?: readonly string[];
  readonly handler: (deps: EndpointDeps) => (input: EndpointInput<ParamSpec, ParamSpec, unknown>) => TE.TaskEither<ApiError, EndpointBody>;
};

/** An endpoint whose handler answers its response codec's output type: checked by tsc. */
export function defineEndpoint<P extends ParamSpec, Q extends ParamSpec, B = undefined, R extends t.Mixed = t.Mixed, M extends t.Mixed = never>(
  e: Endpoint<P, Q, B, R, M>,
): Endpoint<P, Q, B, R, M> {
  return e;
}

/** The method an endpoint answers (its declared one, default GET). */
export const methodOf = (e: { readonly method?: HttpMethod }): HttpMethod => e.method ?? 'GET';

/**
 * The one place parameter types are erased: the handler only ever receives what its own
 * codecs decoded, so calling it through the erased signature is sound.
 */
export function erased(e: Omit<AnyEndpoint, 'handler'>): AnyEndpoint {
  return e as unknown as AnyEndpoint;
}
