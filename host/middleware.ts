/**
 * `explorerMiddleware(explorer, options)`: the explorer as Koa middleware.
 *
 * @koa/router matches every route of lib's table in both forms, `/api/v2<template>` (default
 * chain) and `/:chain_id/api/v2<template>`, under an optional prefix; anything else passes
 * through untouched. A matched request runs one koa-compose chain:
 *
 *   renderErrors → identify → rateLimit → knownChain → authorize → answer
 *
 * renderErrors is outermost so that headers set before a failure (the limit headers) survive;
 * answer hands lib a plain `EndpointRequest` and writes the `ExplorerResponse` it gets back.
 */
import Router from '@koa/router';
import compose from 'koa-compose';
import type { Middleware, ParameterizedContext } from 'koa';
import { API_PREFIX, ROUTES, errorResponse, toJson } from '../lib/index.ts';
import type { ApiError, ApiForm, Explorer, JsonValue, RawQuery, Route } from '../lib/index.ts';
import { authorize, identify } from './identity.ts';
import type { IdentityOptions } from './identity.ts';
import { LIMIT_HEADERS, rateLimit } from './limits.ts';
import type { RateLimitOptions } from './limits.ts';
import { ApiException, requestInfo, setRequestInfo } from './request.ts';

export interface ExplorerMiddlewareOptions extends IdentityOptions, RateLimitOptions {
  /** serve below this path, e.g. `/explorer` → `/explorer/api/v2/blocks` */
  readonly prefix?: string;
  /** told about unexpected errors (rendered as 500); default: one JSON line on stderr */
  readonly onError?: (error: unknown, ctx: ParameterizedContext) => void;
}

const JSON_TYPE = 'application/json; charset=utf-8';
const ALLOWED = ['GET', 'HEAD'];

export function explorerMiddleware(explorer: Explorer, options: ExplorerMiddlewareOptions = {}): Middleware {
  const router = new Router(options.prefix ? { prefix: options.prefix } : {});
  const steps = [renderErrors(options), identify(options), rateLimit(options), knownChain(explorer), authorize(options)];
  for (const route of ROUTES) {
    router.all(`${API_PREFIX}${route.template}`, compose([begin(route, 'instance', explorer), ...steps, answer(explorer)]));
    router.all(
      `/:chain_id${API_PREFIX}${route.template}`,
      compose([begin(route, 'multichain', explorer), ...steps, answer(explorer)]),
    );
  }
  return router.routes() as Middleware;
}

/** Record what the route tells: endpoint, chain and form. */
function begin(route: Route, form: ApiForm, explorer: Explorer): Middleware {
  return (ctx, next) => {
    const params = routeParams(ctx);
    const chainId = form === 'instance' ? explorer.defaultChain : (params.chain_id ?? '');
    setRequestInfo(ctx, { endpoint: route.endpoint, chainId, form });
    return next();
  };
}

/** An unconfigured chain is 404, with or without a key (after counting, so it has limit headers). */
function knownChain(explorer: Explorer): Middleware {
  return (ctx, next) => {
    const info = requestInfo(ctx);
    if (info && !explorer.chainIds.includes(info.chainId)) {
      throw new ApiException({ kind: 'NotFound', message: `Unknown chain: ${info.chainId}` });
    }
    return next();
  };
}

/** Outermost: render any error through lib's table, keeping headers already set. */
export function renderErrors(options: Pick<ExplorerMiddlewareOptions, 'onError'> = {}): Middleware {
  const report = options.onError ?? logUnexpected;
  return async (ctx, next) => {
    try {
      await next();
    } catch (e) {
      let error: ApiError;
      if (e instanceof ApiException) {
        error = e.error;
      } else {
        report(e, ctx);
        error = { kind: 'Internal' };
      }
      for (const header of LIMIT_HEADERS) if (ctx.response.headers[header] === undefined) ctx.set(header, '-1');
      const { status, body } = errorResponse(error);
      writeJson(ctx, status, body as JsonValue);
    }
  };
}

function answer(explorer: Explorer): Middleware {
  return async (ctx) => {
    if (!ALLOWED.includes(ctx.method)) {
      ctx.set('allow', ALLOWED.join(', '));
      throw new ApiException({ kind: 'MethodNotAllowed' });
    }
    const info = requestInfo(ctx);
    if (!info) throw new ApiException({ kind: 'RouteNotFound' });
    const { chain_id: _chain, ...params } = routeParams(ctx);
    const response = await explorer.dispatch({
      endpoint: info.endpoint,
      chainId: info.chainId,
      form: info.form,
      params,
      query: ctx.query as RawQuery,
    });
    for (const [name, value] of Object.entries(response.headers)) ctx.set(name, value);
    writeJson(ctx, response.status, response.body);
  };
}

export function writeJson(ctx: ParameterizedContext, status: number, body: JsonValue): void {
  ctx.status = status;
  ctx.type = JSON_TYPE;
  ctx.body = jsonText(body);
}

/** lib hands out the same body object for a cached answer: serialise each body once. */
const texts = new WeakMap<object, string>();
function jsonText(body: JsonValue): string {
  if (body === null || typeof body !== 'object') return toJson(body);
  let text = texts.get(body);
  if (text === undefined) {
    text = toJson(body);
    texts.set(body, text);
  }
  return text;
}

function routeParams(ctx: ParameterizedContext): Record<string, string> {
  const params: unknown = (ctx as { params?: unknown }).params;
  return typeof params === 'object' && params !== null ? { ...(params as Record<string, string>) } : {};
}

function logUnexpected(error: unknown, ctx: ParameterizedContext): void {
  const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
  process.stderr.write(`${JSON.stringify({ level: 'error', method: ctx.method, path: ctx.path, error: message })}\n`);
}
