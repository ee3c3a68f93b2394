/**
 * The host's side of Sourcify's API (lib/sourcify/): the last step of its middleware chain (the
 * steps before it are the API's: keys, limits, CORS). A POST's body is read here as text, bounded
 * by Sourcify's own limit (30 MiB: whole standard JSON inputs), and handed to lib, which parses
 * it (malformed JSON: Sourcify's 400 `invalid_json`). Larger: 413 in Sourcify's error shape, the
 * connection closed after it.
 */
import type { Middleware, ParameterizedContext } from 'koa';
import type { Explorer, JsonValue } from '../lib/index.ts';
import { contextRequest } from './pipeline/parse.ts';
import { ApiException, requestInfo } from './request.ts';
import type { WriteJson } from './rpc.ts';
import { readBody } from './rpc.ts';

/** Sourcify's `maxFileSize` default */
export const MAX_SOURCIFY_BODY_BYTES = 30 * 1024 * 1024;

export function answerSourcify(explorer: Explorer, write: WriteJson): Middleware {
  return async (ctx: ParameterizedContext) => {
    const info = requestInfo(ctx);
    if (info === undefined || explorer.sourcify === undefined) throw new ApiException({ kind: 'RouteNotFound' });
    let body: string | undefined;
    if (ctx.method === 'POST') {
      const read = await readBody(ctx, MAX_SOURCIFY_BODY_BYTES);
      if ('tooLarge' in read) {
        // the rest of the body is not read: the connection cannot carry another request
        ctx.set('connection', 'close');
        const message = `Request body too large: at most ${MAX_SOURCIFY_BODY_BYTES} bytes`;
        await write(ctx, 413, { customCode: 'payload_too_large', message, errorId: crypto.randomUUID() });
        return;
      }
      body = read.text;
    }
    const path = info.params['path'] ?? ctx.path;
    const response = await explorer.sourcify({ method: ctx.method, path, query: contextRequest(ctx).query, ...(body === undefined ? {} : { body }) });
    await write(ctx, response.status, response.body as JsonValue);
  };
}
