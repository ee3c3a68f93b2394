/**
 * Reading the body of a route that declares one (`body` on the endpoint), within its cap:
 * JSON by `JSON.parse`, urlencoded and multipart forms by busboy. busboy (the parser under
 * multer and Fastify's multipart) because it streams both form types in one small dependency,
 * keeps files in memory as we hand them to lib (no temporary files to clean up, as koa-body's
 * formidable writes), and lets one byte count over the whole body enforce the route's cap while
 * it streams (multer and co-body cap fields and files one by one, or the JSON alone).
 *
 * A body over the cap is not read further (413, the connection closed after the answer); a body
 * that is not JSON or a form, or JSON that does not parse, is a 422 from lib's error table. GET
 * routes never get here.
 */
import type { IncomingMessage } from 'node:http';
import busboy from 'busboy';
import type { RequestBody, UploadedFile } from '../lib/index.ts';
import { ApiException } from './request.ts';

/** What reading a body gave: the body (undefined: none was sent), or that it is over the cap. */
export type ParsedBody = { readonly body: RequestBody | undefined } | { readonly tooLarge: true };

const TOO_LARGE = { tooLarge: true } as const;

/** Read and parse a request's body, at most `maxBytes` of it. */
export async function parseBody(req: IncomingMessage, maxBytes: number): Promise<ParsedBody> {
  const declared = Number(req.headers['content-length'] ?? '0');
  if (declared > maxBytes) return TOO_LARGE;
  const type = (req.headers['content-type'] ?? '').toLowerCase();
  if (type.startsWith('multipart/form-data') || type.startsWith('application/x-www-form-urlencoded')) return parseForm(req, maxBytes);
  const raw = await readRaw(req, maxBytes);
  if (raw === null) return TOO_LARGE;
  if (raw.length === 0) return { body: undefined };
  if (type.startsWith('application/json') || /^application\/[^;]*\+json/.test(type)) {
    let value: unknown;
    try {
      value = JSON.parse(raw.toString('utf8'));
    } catch (error) {
      throw invalidBody(`Invalid JSON: ${error instanceof Error ? error.message : String(error)}`);
    }
    return { body: { type: 'json', value, size: raw.length } };
  }
  throw invalidBody(`Unsupported content type: ${type === '' ? '(none)' : type.split(';')[0]} (send application/json, a urlencoded or a multipart form)`);
}

const invalidBody = (detail: string): ApiException => new ApiException({ kind: 'InvalidParams', errors: [{ name: '', detail }] });

/** The whole body, or null once it passes `maxBytes` (the rest is left unread). */
function readRaw(req: IncomingMessage, maxBytes: number): Promise<Buffer | null> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > maxBytes) {
        stop();
        resolve(null);
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = (): void => {
      stop();
      resolve(Buffer.concat(chunks));
    };
    // the client went away: whatever it sent is all there is
    const onError = (): void => onEnd();
    const stop = (): void => {
      req.off('data', onData).off('end', onEnd).off('error', onError);
      req.pause();
    };
    req.on('data', onData).on('end', onEnd).on('error', onError);
  });
}

/** A form (urlencoded or multipart) through busboy: fields as strings, files as bytes, repeated names as arrays. */
function parseForm(req: IncomingMessage, maxBytes: number): Promise<ParsedBody> {
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({ headers: req.headers, limits: { fieldSize: maxBytes, fileSize: maxBytes } });
    } catch (error) {
      // a multipart type without its boundary, say
      reject(invalidBody(`Invalid form: ${error instanceof Error ? error.message : String(error)}`));
      return;
    }
    const value: Record<string, unknown> = {};
    const add = (name: string, item: string | UploadedFile): void => {
      const had = value[name];
      value[name] = had === undefined ? item : Array.isArray(had) ? [...had, item] : [had, item];
    };
    let size = 0;
    let settled = false;
    const settle = (outcome: ParsedBody | ApiException): void => {
      if (settled) return;
      settled = true;
      req.off('data', onData).off('end', onEnd).off('error', onEnd);
      if (outcome instanceof ApiException) reject(outcome);
      else resolve(outcome);
    };
    const pending: Promise<void>[] = [];
    parser.on('field', (name: string, text: string) => add(name, text));
    parser.on('file', (name: string, stream: NodeJS.ReadableStream, info: busboy.FileInfo) => {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      pending.push(
        new Promise((done) =>
          stream.on('end', () => {
            add(name, { filename: info.filename ?? '', contentType: info.mimeType, content: new Uint8Array(Buffer.concat(chunks)) });
            done();
          }),
        ),
      );
    });
    parser.on('close', () => {
      void Promise.all(pending).then(() => settle({ body: { type: typeOf(req), value, size } }));
    });
    parser.on('error', (error: unknown) => settle(invalidBody(`Invalid form: ${error instanceof Error ? error.message : String(error)}`)));
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > maxBytes) {
        req.pause();
        parser.destroy();
        settle(TOO_LARGE);
        return;
      }
      parser.write(chunk);
    };
    const onEnd = (): void => {
      parser.end();
    };
    req.on('data', onData).on('end', onEnd).on('error', onEnd);
  });
}

const typeOf = (req: IncomingMessage): 'multipart' | 'urlencoded' =>
  (req.headers['content-type'] ?? '').toLowerCase().startsWith('multipart/') ? 'multipart' : 'urlencoded';
