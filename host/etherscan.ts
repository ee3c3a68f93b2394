/**
 * The host's side of the Etherscan-compatible dialect: the last step of its middleware chain
 * (the steps before it are the API's: keys, limits, credits, headers). GET and HEAD read the
 * query string; POST (as Blockscout accepts, and as ethers sends `eth_call`) also reads a
 * bounded form-urlencoded, multipart (busboy, host/body.ts) or JSON-object body, whose
 * parameters win over the query's. The body
 * is read before the chain (`readEtherscanBody`), so that an `apikey` sent in it identifies the
 * caller as one in the query string does (it joins the request value's query: host/pipeline/parse.ts).
 */
import type { Middleware, ParameterizedContext } from 'koa';
import type { Explorer, JsonValue, RawQuery, UploadedFile } from '../lib/index.ts';
import { parseBody } from './body.ts';
import { contextRequest, setContextRequest } from './pipeline/parse.ts';
import { ApiException, requestInfo } from './request.ts';
import type { WriteJson } from './rpc.ts';
import { readBody } from './rpc.ts';

/**
 * The largest body read: 20 MB, Blockscout's limit on `/api` (verifysourcecode sends whole
 * standard-JSON inputs). Larger: 413 with the envelope, the connection closed after it.
 */
export const MAX_FORM_BODY_BYTES = 20 * 1024 * 1024;
const ALLOWED = ['GET', 'HEAD', 'POST'];

/** Parameters of a POST body: form-urlencoded, or a JSON object of scalars. */
export function formParams(contentType: string, text: string): Record<string, string> {
  const out: Record<string, string> = {};
  if (contentType.includes('application/json')) {
    try {
      const parsed: unknown = JSON.parse(text);
      if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) {
        for (const [k, v] of Object.entries(parsed)) if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') out[k] = String(v);
      }
    } catch {
      // not JSON: no body parameters
    }
    return out;
  }
  for (const [k, v] of new URLSearchParams(text)) if (!(k in out)) out[k] = v;
  return out;
}

/** A multipart form's fields as parameters (the first of repeated ones; a file part as its text). */
function multipartParams(value: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (value === null || typeof value !== 'object') return out;
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    const first: unknown = Array.isArray(v) ? v[0] : v;
    if (typeof first === 'string') out[k] = first;
    else if (first !== null && typeof first === 'object' && (first as UploadedFile).content instanceof Uint8Array) out[k] = new TextDecoder().decode((first as UploadedFile).content);
  }
  return out;
}

type FormRead = { readonly params: Readonly<Record<string, string>> } | { readonly tooLarge: true } | { readonly invalid: string };
const forms = new WeakMap<object, FormRead>();

async function readForm(ctx: ParameterizedContext): Promise<FormRead> {
  if (ctx.get('content-type').toLowerCase().startsWith('multipart/')) {
    try {
      const parsed = await parseBody(ctx.req, MAX_FORM_BODY_BYTES);
      return 'tooLarge' in parsed ? parsed : { params: multipartParams(parsed.body?.value) };
    } catch (error) {
      const detail = error instanceof ApiException && error.error.kind === 'InvalidParams' ? error.error.errors[0]?.detail : undefined;
      return { invalid: detail ?? 'Invalid form' };
    }
  }
  const read = await readBody(ctx, MAX_FORM_BODY_BYTES);
  return 'tooLarge' in read ? read : { params: formParams(ctx.get('content-type'), read.text) };
}

/** Read a POST body's parameters (bounded); an `apikey` (or `apiKey`) in it stands for one in the query string. */
export async function readEtherscanBody(ctx: ParameterizedContext): Promise<void> {
  if (ctx.method !== 'POST') return;
  const read = await readForm(ctx);
  forms.set(ctx, read);
  if (!('params' in read)) return;
  const { params } = read;
  // `apiKey` (the etherscan-api client's spelling) stands for `apikey`
  const key = params['apikey'] ?? params['apiKey'];
  const request = contextRequest(ctx);
  const { query } = request;
  if (key !== undefined && key.trim() !== '' && query['apikey'] === undefined && query['apiKey'] === undefined) setContextRequest(ctx, { ...request, query: { ...query, apikey: key } });
}

export function answerEtherscan(explorer: Explorer, write: WriteJson): Middleware {
  return async (ctx: ParameterizedContext) => {
    if (!ALLOWED.includes(ctx.method)) {
      ctx.set('allow', ALLOWED.join(', '));
      throw new ApiException({ kind: 'MethodNotAllowed' });
    }
    const info = requestInfo(ctx);
    if (!info) throw new ApiException({ kind: 'RouteNotFound' });
    let query: RawQuery = contextRequest(ctx).query;
    const form = forms.get(ctx);
    if (form !== undefined) {
      if ('tooLarge' in form) {
        // the rest of the body is not read: the connection cannot carry another request
        ctx.set('connection', 'close');
        const message = `Request body too large: at most ${MAX_FORM_BODY_BYTES} bytes`;
        await write(ctx, 413, { status: '0', message, result: message });
        return;
      }
      if ('invalid' in form) {
        await write(ctx, 200, { status: '0', message: 'NOTOK', result: form.invalid });
        return;
      }
      query = { ...query, ...form.params };
    }
    const legacyPath = info.params['legacyPath'];
    const response = await explorer.etherscan({ chainId: info.chainId, query, ...(legacyPath !== undefined ? { legacyPath } : {}) });
    for (const [name, value] of Object.entries(response.headers)) ctx.set(name, value);
    if (typeof response.body === 'string' && response.headers['content-type']?.startsWith('text/plain')) {
      ctx.status = response.status;
      ctx.body = response.body;
      return;
    }
    await write(ctx, response.status, response.body as JsonValue);
  };
}
