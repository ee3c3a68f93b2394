/**
 * A streamed answer: what an endpoint returns instead of a JSON value when its body is a file
 * produced page by page (the CSV exports). Everything that can fail with a JSON error (bad
 * parameters, an unknown token, the period's block range) is decided before one is made; its
 * chunks are read only once the host writes them, so the export is never held whole.
 */
export class StreamedBody {
  constructor(
    /** the `content-type` header */
    readonly contentType: string,
    /** the file name offered in `content-disposition: attachment; filename="…"` (null: not a file: server-sent events) */
    readonly filename: string | null,
    /** the body, chunk by chunk (lazy: nothing is read before the first chunk is asked for) */
    readonly chunks: AsyncIterable<string>,
    /** more headers (`cache-control` of an event stream) */
    readonly headers: Readonly<Record<string, string>> = {},
  ) {}
}

/** The headers of a streamed answer. */
export function streamedHeaders(body: StreamedBody): Record<string, string> {
  if (body.filename === null) return { ...body.headers, 'content-type': body.contentType };
  return {
    ...body.headers,
    'content-type': body.contentType,
    'content-disposition': `attachment; filename="${body.filename.replace(/["\\\r\n]/g, '_')}"`,
  };
}
