/**
 * The host's side of the JSON-RPC subset and the gateway's config: reading a bounded request
 * body, and the last steps of their middleware chains (the steps before them are the API's).
 *
 * HTTP status: a JSON-RPC answer is 200 whatever its error objects say (as geth and anvil
 * answer), so clients read the JSON-RPC error; a body over MAX_RPC_BODY_BYTES is 413 with a
 * -32600 error object; a method other than POST is 405. Keys, limits and credits refuse with
 * the API's own JSON (401/402/429/503) before any JSON-RPC is read.
 */
import type { Middleware, ParameterizedContext } from 'koa';
import { gatewayConfig, parseJson, RPC_CODES } from '../lib/index.ts';
import type { Explorer, JsonValue, ServiceName } from '../lib/index.ts';
import { ApiException, requestInfo } from './request.ts';

/** The largest JSON-RPC request body read (1 MiB: a batch of 100 calls of 10 KiB each). */
export const MAX_RPC_BODY_BYTES = 1024 * 1024;

export type BodyRead = { readonly text: string } | { readonly tooLarge: true };

const bodies = new WeakMap<object, BodyRead>();

/** Read the request body up to `limit` bytes (the rest is not read); remembered for `answerRpc`. */
export async function readBody(ctx: ParameterizedContext, limit = MAX_RPC_BODY_BYTES): Promise<BodyRead> {
  const declared = Number(ctx.get('content-length') || '0');
  let read: BodyRead;
  if (declared > limit) read = { tooLarge: true };
  else {
    const chunks: Buffer[] = [];
    let size = 0;
    read = { text: '' };
    try {
      for await (const chunk of ctx.req as AsyncIterable<Buffer>) {
        size += chunk.length;
        if (size > limit) {
          read = { tooLarge: true };
          break;
        }
        chunks.push(chunk);
      }
    } catch {
      chunks.length = 0; // the client went away: whatever it sent is answered as not JSON
    }
    if (!('tooLarge' in read)) read = { text: Buffer.concat(chunks).toString('utf8') };
  }
  bodies.set(ctx, read);
  return read;
}

/** How the host writes a JSON answer (middleware.ts's: compressed as the client accepts, so it may wait). */
export type WriteJson = (ctx: ParameterizedContext, status: number, body: JsonValue) => Promise<void> | void;

/** The body `readBody` read for this request. */
export const bodyOf = (ctx: object): BodyRead | undefined => bodies.get(ctx);

/** The last step of a JSON-RPC request: the explorer answers the body for the request's chain. */
export function answerRpc(explorer: Explorer, write: WriteJson): Middleware {
  return async (ctx) => {
    if (ctx.method !== 'POST') {
      ctx.set('allow', 'POST');
      throw new ApiException({ kind: 'MethodNotAllowed' });
    }
    const info = requestInfo(ctx);
    const read = bodyOf(ctx);
    if (!info || !read) throw new ApiException({ kind: 'RouteNotFound' });
    if ('tooLarge' in read) {
      const error = { code: RPC_CODES.invalidRequest, message: `request body too large: at most ${MAX_RPC_BODY_BYTES} bytes` };
      await write(ctx, 413, { jsonrpc: '2.0', id: null, error });
      return;
    }
    const response = await explorer.rpc({ chainId: info.chainId, body: parseJson(read.text) });
    for (const [name, value] of Object.entries(response.headers)) ctx.set(name, value);
    await write(ctx, response.status, response.body);
  };
}

export interface ConfigOptions {
  /** the host's public URL (with any prefix); default: the request's origin and the prefix */
  readonly publicUrl?: string;
  readonly prefix?: string;
  readonly costs?: Partial<Readonly<Record<ServiceName, number>>>;
}

/** The last step of `GET /api/json/config`. */
export function answerConfig(explorer: Explorer, options: ConfigOptions, write: WriteJson): Middleware {
  return async (ctx) => {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') {
      ctx.set('allow', 'GET, HEAD');
      throw new ApiException({ kind: 'MethodNotAllowed' });
    }
    const baseUrl = options.publicUrl ?? `${ctx.protocol}://${ctx.host}${options.prefix ?? ''}`;
    await write(ctx, 200, gatewayConfig({ chainIds: explorer.chainIds, baseUrl, ...(options.costs ? { costs: options.costs } : {}) }));
  };
}

