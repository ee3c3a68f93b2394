/**
 * What an endpoint module exports: its path and query codecs and its handler
 * `(deps) => (input) => TaskEither<ApiError, JsonValue>`.
 */
import type * as TE from 'fp-ts/lib/TaskEither.js';
import type { ApiForm, EndpointName } from '../api.ts';
import type { ApiError } from '../errors.ts';
import type { JsonValue } from '../json.ts';
import type { Decoded, ParamSpec } from '../params/decode.ts';
import type { DataSource } from '../ports.ts';
import type { RenderOptions } from '../render/context.ts';

export interface EndpointDeps {
  readonly ds: DataSource;
  readonly chainId: string;
  readonly form: ApiForm;
  readonly render: RenderOptions;
}

export interface Endpoint<P extends ParamSpec, Q extends ParamSpec> {
  readonly name: EndpointName;
  readonly path: P;
  readonly query: Q;
  readonly handler: (deps: EndpointDeps) => (input: Decoded<P, Q>) => TE.TaskEither<ApiError, JsonValue>;
}

/** An endpoint with its parameter types erased, as dispatch sees it (see `erased`). */
export interface AnyEndpoint {
  readonly name: EndpointName;
  readonly path: ParamSpec;
  readonly query: ParamSpec;
  readonly handler: (deps: EndpointDeps) => (input: Decoded<ParamSpec, ParamSpec>) => TE.TaskEither<ApiError, JsonValue>;
}

export function defineEndpoint<P extends ParamSpec, Q extends ParamSpec>(e: Endpoint<P, Q>): Endpoint<P, Q> {
  return e;
}

/**
 * The one place parameter types are erased: the handler only ever receives what its own
 * codecs decoded, so calling it through the erased signature is sound.
 */
export function erased(e: Pick<AnyEndpoint, 'name' | 'path' | 'query'>): AnyEndpoint {
  return e as unknown as AnyEndpoint;
}
