/**
 * Validates responses against OUR OpenAPI document (lib's `openApiDocument`), always — it needs
 * nothing beside the repository. The document is OpenAPI 3.1, so its schemas are JSON Schema:
 * ajv compiles them as they are, `$ref`s resolved inside the document.
 */
import { Ajv } from 'ajv';
import type { ErrorObject, ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { ENDPOINTS, matchRoute, openApiDocument, parsePath, toJson } from '../../lib/index.ts';
import type { ApiForm, ApiVersion, EndpointName, Explorer, ExplorerResponse } from '../../lib/index.ts';

/** The chain ids our document is generated for in tests (the `{chain_id}` enum). */
export const DOC_CHAIN_IDS = ['1', '5'] as const;

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

/** A fresh copy of our document (a caller may change it: tools that dereference in place). */
export const ourDocument = (): { [k: string]: Json } => openApiDocument({ chainIds: [...DOC_CHAIN_IDS] }) as { [k: string]: Json };

/**
 * The one copy the validators read, built once per process: building the document takes about
 * 50 ms, and the validators looked it up once per operation and status (about 12 s of the memory
 * store's conformance file, a fifth of its CPU).
 */
let shared: { [k: string]: Json } | undefined;
const document = (): { [k: string]: Json } => (shared ??= ourDocument());

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;
const DOC_ID = 'scoutkit-openapi';

let ajv: Ajv | undefined;
function validatorAjv(): Ajv {
  if (ajv === undefined) {
    // no optimising pass over the generated code: each validator runs a few times and is compiled once,
    // and that pass was about a sixth of the memory store's conformance file's CPU
    ajv = new Ajv({ allErrors: true, strict: false, validateFormats: true, code: { optimize: false } });
    addFormats(ajv);
    ajv.addSchema(document() as object, DOC_ID);
  }
  return ajv;
}

/**
 * `/api/v2` + route (instance) or `/{chain_id}/api/v2` + route (multichain); a v1 endpoint's
 * template is written in full, `/api/v1/search` (see `documentedTemplate`).
 */
export const ourPath = (form: ApiForm, route: string): string =>
  route.startsWith('/api/') ? `${form === 'instance' ? '' : '/{chain_id}'}${route}` : `${form === 'instance' ? '/api/v2' : '/{chain_id}/api/v2'}${route}`;

/** The template the validators take for an endpoint: its route below `/api/v2`, or a v1 route in full (`/api/v1/search`). */
export const documentedTemplate = (e: { readonly route: string; readonly api?: ApiVersion }): string => (e.api === 'v1' ? `/api/v1${e.route}` : e.route);

const pointer = (s: string): string => s.replace(/~/g, '~0').replace(/\//g, '~1');
const compiled = new Map<string, ValidateFunction | string>();

function validatorFor(form: ApiForm, route: string, status: number): ValidateFunction | string {
  const key = `${form} ${route} ${status}`;
  const hit = compiled.get(key);
  if (hit !== undefined) return hit;
  const doc = document();
  const p = ourPath(form, route);
  const op = ((doc.paths as Record<string, Json>)[p] as Record<string, Json> | undefined)?.get as Record<string, Json> | undefined;
  let result: ValidateFunction | string;
  if (op === undefined) result = `ours: no GET ${p}`;
  else if ((op.responses as Record<string, Json>)[String(status)] === undefined) result = `ours: GET ${p} documents no ${status}`;
  else {
    const ref = `${DOC_ID}#/paths/${pointer(p)}/get/responses/${status}/content/${pointer('application/json')}/schema`;
    result = validatorAjv().compile({ $ref: ref });
  }
  compiled.set(key, result);
  return result;
}

function describe(e: ErrorObject): string {
  const where = e.instancePath === '' ? '(root)' : e.instancePath;
  const p = e.params as Record<string, unknown>;
  const detail = e.keyword === 'additionalProperties' ? ` '${String(p.additionalProperty)}'` : '';
  return `${where}: ${e.message ?? e.keyword}${detail}`;
}

/**
 * Validate a body (plain JSON: pass `JSON.parse(text)`) against our document. `route` is the
 * endpoint's route below /api/v2. Empty means valid.
 */
export function validateOurs(form: ApiForm, route: string, status: number, body: unknown): string[] {
  const v = validatorFor(form, route, status);
  if (typeof v === 'string') return [v];
  if (v(body)) return [];
  return [...new Set((v.errors ?? []).map(describe))];
}

/**
 * A streamed answer (the CSV exports; its chunks are left for the caller to read): our document
 * must name its media type, a string schema, for that status. Empty means valid.
 */
export function validateOursStreamed(form: ApiForm, route: string, r: ExplorerResponse): string[] {
  const p = ourPath(form, route);
  const op = ((document().paths as Record<string, Json>)[p] as Record<string, Json> | undefined)?.get as Record<string, Json> | undefined;
  if (op === undefined) return [`ours: no GET ${p}`];
  const response = (op.responses as Record<string, Json>)[String(r.status)] as Record<string, Json> | undefined;
  if (response === undefined) return [`ours: GET ${p} documents no ${r.status}`];
  const type = (r.headers['content-type'] ?? '').split(';')[0]?.trim() ?? '';
  const media = (response.content as Record<string, Json> | undefined)?.[type] as Record<string, Json> | undefined;
  if (media === undefined) return [`ours: GET ${p} ${r.status} documents no ${type}`];
  return (media.schema as Record<string, Json> | undefined)?.type === 'string' ? [] : [`ours: GET ${p} ${r.status} ${type} is not a string`];
}

export interface ValidatingExplorer {
  readonly explorer: Explorer;
  /** responses validated so far */
  readonly validated: () => number;
  /** `<form> <path> <status>: <errors>` of every response that failed */
  readonly failures: string[];
}

/**
 * An explorer whose every answer (handle and dispatch) is validated against our document;
 * failures are collected for one assertion at the end. Paths outside the route table and meta
 * endpoints (the document itself) are not documented, so not validated.
 */
export function validatingExplorer(inner: Explorer): ValidatingExplorer {
  let count = 0;
  const failures: string[] = [];
  const check = (form: ApiForm, endpoint: string, label: string, r: ExplorerResponse): void => {
    // only the registry's endpoints are documented
    if (!Object.prototype.hasOwnProperty.call(ENDPOINTS, endpoint)) return;
    const e = ENDPOINTS[endpoint as EndpointName];
    if (e.meta === true) return;
    count += 1;
    const errors =
      r.stream === undefined ? validateOurs(form, documentedTemplate(e), r.status, JSON.parse(toJson(r.body))) : validateOursStreamed(form, documentedTemplate(e), r);
    if (errors.length > 0) failures.push(`${form} ${label} ${r.status}: ${errors.slice(0, 5).join('; ')}`);
  };
  const explorer: Explorer = {
    chainIds: inner.chainIds,
    defaultChain: inner.defaultChain,
    async handle(request) {
      const r = await inner.handle(request);
      // an operation is a GET (HEAD answers the same); other methods are 405 before any endpoint
      if (!['GET', 'HEAD'].includes((request.method ?? 'GET').toUpperCase())) return r;
      const parsed = parsePath(request.path);
      const match = parsed === null ? null : matchRoute(parsed.subPath, 'GET', parsed.api);
      if (parsed !== null && match !== null) {
        check(parsed.chainId === undefined ? 'instance' : 'multichain', match.endpoint, `${request.path} ${JSON.stringify(request.query ?? {})}`, r);
      }
      return r;
    },
    async dispatch(request) {
      const r = await inner.dispatch(request);
      check(request.form ?? 'instance', request.endpoint, `${request.endpoint} ${JSON.stringify(request.params)} ${JSON.stringify(request.query)}`, r);
      return r;
    },
    // the other dialects have no OpenAPI operations: answered as they are
    rpc: (request) => inner.rpc(request),
    etherscan: (request) => inner.etherscan(request),
  };
  return { explorer, validated: () => count, failures };
}
