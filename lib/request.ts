/**
 * The request values every layer reads — the raw query, a body, the method, the API form — as a
 * leaf: it imports nothing, so the codecs, the endpoints and the error table name them without
 * importing lib/api.ts (which imports the route table, and through it every endpoint).
 */

/** Raw query as a web framework gives it: repeated keys arrive as arrays. */
export type RawQuery = Readonly<Record<string, string | readonly string[] | undefined>>;

/** The methods a route may declare (HEAD is answered by a GET route). */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** A file of a multipart body, read whole (within the route's cap). */
export interface UploadedFile {
  readonly filename: string;
  readonly contentType: string;
  readonly content: Uint8Array;
}

/**
 * A request body as the host parsed it (or a library caller built it, see `jsonBody`).
 * `value` is what the route's body codec decodes: a JSON body's value; a form's fields (a
 * repeated field: an array of its values) and, for multipart, its files (`UploadedFile`, an
 * array when repeated) under their field names.
 */
export interface RequestBody {
  readonly type: 'json' | 'urlencoded' | 'multipart';
  readonly value: unknown;
  /** bytes as received; the route's cap applies to it (over it: 413) */
  readonly size: number;
}

/**
 * Which API dialect answers: the per-instance form (`/api/v2`, Blockscout 11.2.7) or the
 * multichain form (`/{chain_id}/api/v2`, Pro API 0.5.0). A few bodies differ between them.
 */
export type ApiForm = 'instance' | 'multichain';
