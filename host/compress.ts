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
import type { IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import accepts from 'accepts';
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
  /** the identity answer, and each compressed one once made: a hit takes them as they are */
  plain?: Encoded;
  done?: { br?: Encoded; gzip?: Encoded };
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

/** The bytes to write for one answer, and their encoding (none: identity). */
export interface Encoded {
  readonly body: Buffer | string;
  readonly encoding?: Encoding;
}

export interface Compressor {
  /**
   * Write a JSON text as the body: its bytes, compressed when the client accepts it and it is
   * worth it. `keep`: the object this text was made from is a cached answer's (handed out again
   * on later hits): its bytes and compressed forms are kept beside it. Resolves at once (no
   * promise) when nothing is to be compressed.
   */
  send(ctx: ParameterizedContext, text: string, keep?: object): Promise<void> | undefined;
  /**
   * What `send` writes, for a request with this `Accept-Encoding` (`''`: none), without a Koa
   * context: the body and its encoding, synchronously when nothing is to be compressed.
   */
  encode(acceptEncoding: string, text: string, keep?: object): Encoded | Promise<Encoded>;
  /** whether an answer written by `send` says `Vary: Accept-Encoding` */
  readonly varies: boolean;
  /** a streamed body, compressed on the fly when the client accepts it */
  stream(ctx: ParameterizedContext, body: Readable): Readable;
}

/** the encodings negotiated per `Accept-Encoding` value (a few distinct values in practice; cleared when it grows) */
const negotiated = new Map<string, Encoding | undefined>();
const NEGOTIATED_MAX = 256;

/**
 * The client's choice among ours for this `Accept-Encoding` value: brotli, gzip or none (also
 * when it refuses identity: an answer it can read beats a 406). Read as Koa's
 * `ctx.acceptsEncodings('br', 'gzip', 'identity')` reads it (the same `accepts`), once per
 * distinct value.
 */
export function chooseEncoding(header: string): Encoding | undefined {
  if (header === '') return undefined;
  if (negotiated.has(header)) return negotiated.get(header);
  const chosen = accepts({
    headers: { 'accept-encoding': header },
  } as IncomingMessage).encodings('br', 'gzip', 'identity');
  const encoding = chosen === 'br' || chosen === 'gzip' ? chosen : undefined;
  if (negotiated.size >= NEGOTIATED_MAX) negotiated.clear();
  negotiated.set(header, encoding);
  return encoding;
}

const isPromise = <T>(x: T | Promise<T>): x is Promise<T> => x instanceof Promise;

/** Set an encoded body on a Koa context (`content-encoding` first, as the header order has always been). */
function writeEncoded(ctx: ParameterizedContext, out: Encoded): void {
  if (out.encoding !== undefined) ctx.set('content-encoding', out.encoding);
  ctx.body = out.body;
}

/** A Compressor's `send` and `stream` from its `encode`. */
function overKoa(encode: Compressor['encode'], varies: boolean, stream: Compressor['stream']): Compressor {
  return {
    send(ctx, text, keep) {
      if (varies) ctx.vary('accept-encoding');
      const out = encode(varies ? ctx.get('accept-encoding') : '', text, keep);
      if (!isPromise(out)) {
        writeEncoded(ctx, out);
        return undefined;
      }
      return out.then((o) => writeEncoded(ctx, o));
    },
    encode,
    varies,
    stream,
  };
}

/** No compression: bytes as they are (the cached answer's still encoded once). */
export function plainCompressor(): Compressor {
  const forms = new WeakMap<object, Buffer>();
  const encode = (_accept: string, text: string, keep?: object): Encoded => {
    if (keep === undefined) return { body: text };
    let bytes = forms.get(keep);
    if (bytes === undefined) {
      bytes = Buffer.from(text);
      forms.set(keep, bytes);
    }
    return { body: bytes };
  };
  return overKoa(encode, false, (_ctx, body) => body);
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

  const encode = (accept: string, text: string, keep?: object): Encoded | Promise<Encoded> => {
    const encoding = chooseEncoding(accept);
    if (keep !== undefined) {
      let forms = kept.get(keep);
      if (forms === undefined) {
        forms = { bytes: Buffer.from(text) };
        kept.set(keep, forms);
      }
      const bytes = forms.bytes;
      if (encoding === undefined || bytes.length < threshold) return forms.plain ?? (forms.plain = { body: bytes });
      const done = forms.done?.[encoding];
      if (done !== undefined) return done;
      return formOf(forms, encoding).then(
        (body) => {
          const out: Encoded = { body, encoding };
          // made: later hits take it without a promise (a form is kept only once it exists)
          if (forms[encoding] !== undefined) (forms.done ??= {})[encoding] = out;
          return out;
        },
        () => ({ body: bytes }),
      );
    }
    if (encoding === undefined || text.length < threshold) return { body: text };
    const bytes = Buffer.from(text);
    if (bytes.length < threshold) return { body: bytes };
    told?.({ encoding, kind: 'request', bytes: bytes.length });
    return compressBytes(bytes, encoding, false).then(
      (body): Encoded => ({ body, encoding }),
      (): Encoded => ({ body: bytes }),
    );
  };

  return overKoa(encode, true, (ctx, body) => {
    ctx.vary('accept-encoding');
    const encoding = chooseEncoding(ctx.get('accept-encoding'));
    if (encoding === undefined) return body;
    ctx.set('content-encoding', encoding);
    // HEAD: the headers a GET would have; koa reads no body (nor starts the export)
    if (ctx.method === 'HEAD') return body;
    told?.({ encoding, kind: 'stream', bytes: 0 });
    // flushed after each chunk: a client reads rows as they come, not when zlib's window fills
    const zip =
      encoding === 'gzip'
        ? zlib.createGzip({
            level: GZIP_FAST,
            flush: zlib.constants.Z_SYNC_FLUSH,
          })
        : zlib.createBrotliCompress({
            flush: zlib.constants.BROTLI_OPERATION_FLUSH,
            params: {
              [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
              [zlib.constants.BROTLI_PARAM_QUALITY]: BR_FAST,
            },
          });
    // a failure of the source ends the compressed stream too (the caller destroys the socket)
    body.on('error', (e) => zip.destroy(e));
    return body.pipe(zip);
  });
}
