/**
 * Answers as bytes, compressed once (issue 26, item 3).
 *
 * A JSON answer is written as UTF-8 bytes. A cached answer (lib hands out the same response
 * object on every hit, `isCachedResponse`) keeps its bytes and, once a client has asked for one,
 * its gzip and brotli forms beside it (a WeakMap from its body object: gone with the answer), made
 * once at a high quality and shared by every later hit (and by requests that arrive while it is
 * being made). Any other answer is compressed per request, at a quality chosen for speed, when it
 * is at least `threshold` bytes. A streamed answer (the CSV exports) is compressed on the fly,
 * flushed after each chunk so that a client sees rows as they are produced.
 *
 * The encoding follows the client's `Accept-Encoding` (q-values, `identity`, `*`) as Koa's
 * `acceptsEncodings` (negotiator) reads it; every answer that could be compressed says
 * `Vary: Accept-Encoding`. zlib's work runs on libuv's thread pool (the async calls), not on the
 * event loop.
 */
import { Readable } from 'node:stream';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { ParameterizedContext } from 'koa';

export interface CompressOptions {
  /** an uncached answer smaller than this many bytes is sent as it is (default 1024) */
  readonly threshold?: number;
  /** told each time a body is compressed (tests count them; default none) */
  readonly onCompress?: (event: CompressEvent) => void;
}

export interface CompressEvent {
  readonly encoding: Encoding;
  /** 'cached': a cached answer's form, made once; 'request': one answer's; 'stream': a streamed answer */
  readonly kind: 'cached' | 'request' | 'stream';
  readonly bytes: number;
}

export type Encoding = 'br' | 'gzip';

export const DEFAULT_COMPRESS_THRESHOLD = 1024;

/** brotli's quality per request (fast) and for a cached answer (made once; 11 costs seconds on a large page) */
const BR_FAST = 4;
const BR_CACHED = 9;
const GZIP_FAST = 6;
const GZIP_CACHED = 9;

const gzip = promisify(zlib.gzip);
const brotli = promisify(zlib.brotliCompress);

function compressBytes(bytes: Buffer, encoding: Encoding, cached: boolean): Promise<Buffer> {
  if (encoding === 'gzip') return gzip(bytes, { level: cached ? GZIP_CACHED : GZIP_FAST });
  return brotli(bytes, {
    params: {
      [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
      [zlib.constants.BROTLI_PARAM_QUALITY]: cached ? BR_CACHED : BR_FAST,
      [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
    },
  });
}

/** A cached answer's bytes and its compressed forms (a promise while one is being made). */
interface Forms {
  readonly bytes: Buffer;
  br?: Promise<Buffer>;
  gzip?: Promise<Buffer>;
}

export interface Compressor {
  /**
   * Write a JSON text as the body: its bytes, compressed when the client accepts it and it is
   * worth it. `keep`: the object this text was made from is a cached answer's (handed out again
   * on later hits): its bytes and compressed forms are kept beside it. Resolves at once (no
   * promise) when nothing is to be compressed.
   */
  send(ctx: ParameterizedContext, text: string, keep?: object): Promise<void> | undefined;
  /** a streamed body, compressed on the fly when the client accepts it */
  stream(ctx: ParameterizedContext, body: Readable): Readable;
}

/** The client's choice among ours: brotli, gzip or none (also when it refuses identity: an answer it can read beats a 406). */
export function chooseEncoding(ctx: ParameterizedContext): Encoding | undefined {
  const header = ctx.get('accept-encoding');
  if (header === '') return undefined;
  const chosen = ctx.acceptsEncodings('br', 'gzip', 'identity');
  return chosen === 'br' || chosen === 'gzip' ? chosen : undefined;
}

/** No compression: bytes as they are (the cached answer's still encoded once). */
export function plainCompressor(): Compressor {
  const forms = new WeakMap<object, Buffer>();
  return {
    send(ctx, text, keep) {
      if (keep === undefined) {
        ctx.body = text;
        return undefined;
      }
      let bytes = forms.get(keep);
      if (bytes === undefined) {
        bytes = Buffer.from(text);
        forms.set(keep, bytes);
      }
      ctx.body = bytes;
      return undefined;
    },
    stream: (_ctx, body) => body,
  };
}

export function createCompressor(options: CompressOptions | false | undefined): Compressor {
  if (options === false) return plainCompressor();
  const threshold = options?.threshold ?? DEFAULT_COMPRESS_THRESHOLD;
  const told = options?.onCompress;
  const kept = new WeakMap<object, Forms>();

  const formOf = (forms: Forms, encoding: Encoding): Promise<Buffer> => {
    let form = forms[encoding];
    if (form === undefined) {
      form = compressBytes(forms.bytes, encoding, true);
      told?.({ encoding, kind: 'cached', bytes: forms.bytes.length });
      // a failure is not kept: the next hit tries again
      form.catch(() => {
        if (forms[encoding] === form) forms[encoding] = undefined;
      });
      forms[encoding] = form;
    }
    return form;
  };

  const write = (ctx: ParameterizedContext, encoding: Encoding, body: Buffer): void => {
    ctx.set('content-encoding', encoding);
    ctx.body = body;
  };

  return {
    send(ctx, text, keep) {
      ctx.vary('accept-encoding');
      const encoding = chooseEncoding(ctx);
      if (keep !== undefined) {
        let forms = kept.get(keep);
        if (forms === undefined) {
          forms = { bytes: Buffer.from(text) };
          kept.set(keep, forms);
        }
        if (encoding === undefined || forms.bytes.length < threshold) {
          ctx.body = forms.bytes;
          return undefined;
        }
        const bytes = forms.bytes;
        return formOf(forms, encoding).then(
          (body) => write(ctx, encoding, body),
          () => {
            ctx.body = bytes;
          },
        );
      }
      if (encoding === undefined || text.length < threshold) {
        ctx.body = text;
        return undefined;
      }
      const bytes = Buffer.from(text);
      if (bytes.length < threshold) {
        ctx.body = bytes;
        return undefined;
      }
      told?.({ encoding, kind: 'request', bytes: bytes.length });
      return compressBytes(bytes, encoding, false).then(
        (body) => write(ctx, encoding, body),
        () => {
          ctx.body = bytes;
        },
      );
    },
    stream(ctx, body) {
      ctx.vary('accept-encoding');
      const encoding = chooseEncoding(ctx);
      if (encoding === undefined) return body;
      ctx.set('content-encoding', encoding);
      // HEAD: the headers a GET would have; koa reads no body (nor starts the export)
      if (ctx.method === 'HEAD') return body;
      told?.({ encoding, kind: 'stream', bytes: 0 });
      // flushed after each chunk: a client reads rows as they come, not when zlib's window fills
      const zip =
        encoding === 'gzip'
          ? zlib.createGzip({ level: GZIP_FAST, flush: zlib.constants.Z_SYNC_FLUSH })
          : zlib.createBrotliCompress({
              flush: zlib.constants.BROTLI_OPERATION_FLUSH,
              params: { [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT, [zlib.constants.BROTLI_PARAM_QUALITY]: BR_FAST },
            });
      // a failure of the source ends the compressed stream too (the caller destroys the socket)
      body.on('error', (e) => zip.destroy(e));
      return body.pipe(zip);
    },
  };
}
