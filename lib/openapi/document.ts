/**
 * The OpenAPI 3.1 document of our API, generated from endpoint declarations: paths from their
 * routes (both forms), parameters from their codecs' schemas, 200 bodies from their response
 * codecs, error bodies from lib/schema/page.ts. Nothing here is written per endpoint.
 */
import * as t from 'io-ts';
import type { AnyEndpoint } from '../endpoints/endpoint.ts';
import { methodOf } from '../endpoints/endpoint.ts';
import type { JsonObject, JsonValue } from '../json.ts';
import { COMMON_QUERY } from '../params/decode.ts';
import type { ParamSpec } from '../params/decode.ts';
import type { ApiVersion } from '../paths.ts';
import { apiPrefix } from '../paths.ts';
import type { ApiForm } from '../request.ts';
import { InvalidParamsError, MessageError } from '../schema/page.ts';
import type { Components, JsonSchema } from './jsonSchema.ts';
import { toJsonSchema } from './jsonSchema.ts';
import { ETHERSCAN_SCHEMAS, ETHERSCAN_TAGS, etherscanPaths, etherscanTag } from './etherscan.ts';
import { CONFIG_TAG, RPC_SCHEMAS, RPC_TAG, rpcPaths } from './rpc.ts';

export interface OpenApiOptions {
  /** the configured chain ids: the values of `{chain_id}` */
  readonly chainIds: readonly string[];
  /** where the API is served (e.g. `https://explorer.example/explorer`); default: this host's root */
  readonly serverUrl?: string;
  /** `info.version`; default `2` (the API is Blockscout's v2) */
  readonly version?: string;
}

export const OPENAPI_PATH = '/openapi.json';

/** The one tag of every multichain twin (`/{chain_id}/api/v2/...`): the page lists them once, apart. */
export const MULTICHAIN_TAG = 'multichain';

/** OpenAPI path key of a route in a form (below `/api/v2`, or `/api/v1` for a v1 route). */
export const documentPath = (form: ApiForm, route: string, api: ApiVersion = 'v2'): string =>
  `${form === 'instance' ? '' : '/{chain_id}'}${apiPrefix(api)}${route}`;

const LIMIT_HEADERS: JsonObject = Object.fromEntries(
  [
    ['x-ratelimit-limit', 'requests allowed in the current window'],
    ['x-ratelimit-remaining', 'requests left in the current window'],
    ['x-ratelimit-reset', 'milliseconds until the window resets'],
    ['x-credits-remaining', 'credits left in the current period'],
  ].map(([name, description]) => [name, { description: `${description} (-1: the limiter failed)`, schema: { type: 'integer' } }]),
);

const ERROR_STATUSES: readonly (readonly [string, string])[] = [
  ['401', 'Missing or unknown API key'],
  ['402', 'Out of credits'],
  ['403', 'A restricted address without the secret key'],
  ['404', 'Unknown transaction, token, block, instance or chain'],
  ['429', 'Over the rate limit'],
  ['503', 'The data source failed to answer'],
];

const COMMON_DESCRIPTIONS: Readonly<Record<string, string>> = {
  apikey: 'API key (also `Authorization: Bearer <key>` or `x-api-key`)',
  key: 'Secret key for restricted addresses',
};

/**
 * One parameter per codec, except keys `x[y]`: they are the properties of the object parameter
 * `x` (OpenAPI's deepObject style, sent as `x[y]=…`), which an object-typed codec may also name.
 */
function parameters(spec: ParamSpec, where: 'path' | 'query', required: readonly string[] = []): JsonObject[] {
  const out: (JsonObject | string)[] = [];
  /** deepObject parameters by name: the object codec's own schema, and the folded keys */
  const objects = new Map<string, { own: JsonSchema; properties: Record<string, JsonValue> }>();
  const objectParam = (name: string): { own: JsonSchema; properties: Record<string, JsonValue> } => {
    let o = objects.get(name);
    if (o === undefined) {
      o = { own: { type: 'object' }, properties: {} };
      objects.set(name, o);
      out.push(name); // its place in the list
    }
    return o;
  };
  for (const [name, codec] of Object.entries(spec)) {
    const deep = /^([^[\]]+)\[([^[\]]+)\]$/.exec(name);
    if (deep !== null) {
      objectParam(deep[1] as string).properties[deep[2] as string] = codec.jsonSchema;
    } else if (codec.jsonSchema.type === 'object') {
      objectParam(name).own = codec.jsonSchema;
    } else {
      out.push({
        name,
        in: where,
        ...(where === 'path' || required.includes(name) ? { required: true } : {}),
        ...(COMMON_DESCRIPTIONS[name] === undefined ? {} : { description: COMMON_DESCRIPTIONS[name] }),
        schema: codec.jsonSchema,
      });
    }
  }
  return out.map((p) => {
    if (typeof p !== 'string') return p;
    const o = objects.get(p) as { own: JsonSchema; properties: Record<string, JsonValue> };
    const schema = Object.keys(o.properties).length === 0 ? o.own : { ...o.own, properties: o.properties };
    return { name: p, in: where, style: 'deepObject', explode: true, schema };
  });
}

const json = (schema: JsonSchema): JsonObject => ({ 'application/json': { schema } });

function operation(name: string, e: AnyEndpoint, form: ApiForm, options: OpenApiOptions, components: Components): JsonObject {
  const chainParam: JsonObject = {
    name: 'chain_id',
    in: 'path',
    required: true,
    description: 'The chain, one of the configured chain ids',
    schema: { type: 'string', enum: [...options.chainIds] },
  };
  const common = form === 'instance' ? COMMON_QUERY : { key: COMMON_QUERY.key };
  const body = form === 'multichain' ? (e.multichainResponse ?? e.response) : e.response;
  const responses: Record<string, JsonValue> = {
    '200':
      e.produces === undefined
        ? { description: 'OK', headers: LIMIT_HEADERS, content: json(toJsonSchema(body, components)) }
        : {
            description: 'OK: a file, streamed as it is read (`content-disposition: attachment`)',
            headers: { ...LIMIT_HEADERS, 'content-disposition': { description: 'attachment; filename="…"', schema: { type: 'string' } } },
            content: { [e.produces]: { schema: toJsonSchema(body, components) } },
          },
    '422':
      e.unprocessableMessage === undefined
        ? { description: 'Invalid parameters', content: json(toJsonSchema(InvalidParamsError, components)) }
        : {
            description: `Invalid parameters, or \`{message}\` when ${e.unprocessableMessage}`,
            content: json(toJsonSchema(t.union([InvalidParamsError, MessageError]), components)),
          },
  };
  for (const [status, description] of ERROR_STATUSES) responses[status] = { description, content: json(toJsonSchema(MessageError, components)) };
  if (e.mayLack !== undefined) {
    responses['501'] = { description: `${e.mayLack} not available from this store (it lacks the optional query this answer needs)`, content: json(toJsonSchema(MessageError, components)) };
  }
  return {
    operationId: form === 'instance' ? name : `${name}Multichain`,
    summary: e.summary,
    tags: [form === 'multichain' ? MULTICHAIN_TAG : tagOf(e.route)],
    parameters: [
      ...(form === 'multichain' ? [chainParam] : []),
      ...parameters(e.path, 'path'),
      ...parameters(e.query, 'query', e.requiredQuery),
      ...parameters(common, 'query'),
    ],
    ...(form === 'multichain' ? { security: [{ bearerAuth: [] }, { apiKeyAuth: [] }, { apiKeyHeader: [] }] } : {}),
    ...(e.body === undefined ? {} : { requestBody: requestBody(e.body.maxBytes) }),
    responses,
  };
}

/** A route's body: JSON, a urlencoded or a multipart form (the fields its summary names), up to its cap. */
const requestBody = (maxBytes: number): JsonObject => {
  const schema: JsonObject = { type: 'object', description: `At most ${maxBytes} bytes (larger: 413)` };
  return { required: true, content: { 'application/json': { schema }, 'multipart/form-data': { schema }, 'application/x-www-form-urlencoded': { schema } } };
};

/** `/addresses/{…}/tokens` → `addresses` */
const tagOf = (route: string): string => route.split('/')[1] ?? 'api';

/** The document of the given endpoints (meta endpoints left out), both forms. */
export function buildOpenApiDocument(endpoints: Readonly<Record<string, AnyEndpoint>>, options: OpenApiOptions): JsonObject {
  const components: Components = new Map();
  const paths: Record<string, JsonValue> = {};
  for (const form of ['instance', 'multichain'] as const) {
    for (const [name, e] of Object.entries(endpoints)) {
      if (e.meta === true) continue;
      const path = documentPath(form, e.route, e.api);
      // a path may be served under several methods: one operation each
      paths[path] = { ...(paths[path] as JsonObject | undefined), [methodOf(e).toLowerCase()]: operation(name, e, form, options, components) };
    }
  }
  // the other dialects (instance form; the multichain form's paths are named in their tags)
  const errors: Record<string, JsonValue> = {};
  for (const [status, description] of ERROR_STATUSES) {
    if (status !== '403') errors[status] = { description, content: json(toJsonSchema(MessageError, components)) };
  }
  Object.assign(paths, etherscanPaths(errors), rpcPaths(errors));
  for (const [name, schema] of Object.entries({ ...ETHERSCAN_SCHEMAS, ...RPC_SCHEMAS })) components.set(name, schema);
  const schemas = Object.fromEntries([...components.entries()].sort(([a], [b]) => a.localeCompare(b)));
  const v2Tags = [...new Set(Object.values(endpoints).filter((e) => e.meta !== true).map((e) => tagOf(e.route)))];
  // a tree of its own: tools that dereference in place must not reach the codecs' schemas
  return structuredClone({
    openapi: '3.1.0',
    info: {
      title: 'scoutkit',
      version: options.version ?? '2',
      description:
        'Blockscout API v2 (read-only explorer data). The per-instance form `/api/v2/...` answers for the default chain ' +
        '(Blockscout 11.2.7); the multichain form `/{chain_id}/api/v2/...` for any configured chain (Blockscout Pro API 0.5.0), ' +
        'and needs an API key unless the server says otherwise. Also here: the Etherscan-compatible API (`/api?module=…&action=…`, ' +
        'one operation per action; `/{chain_id}/api?…` for any chain), JSON-RPC (`POST /api/eth-rpc`; `/{chain_id}/json-rpc`) and the ' +
        "gateway's config (`/api/json/config`).",
    },
    ...(options.serverUrl === undefined ? {} : { servers: [{ url: options.serverUrl }] }),
    tags: [
      ...v2Tags.map((name) => ({ name })),
      ...ETHERSCAN_TAGS.map((module) => ({
        name: etherscanTag(module),
        description: `The Etherscan-compatible dialect, \`module=${module}\`: \`/api?module=${module}&action=…\` (also \`/{chain_id}/api?…\` for any configured chain)`,
      })),
      { name: RPC_TAG, description: 'The JSON-RPC subset a wallet or a library (viem, ethers) calls' },
      { name: CONFIG_TAG, description: "The multichain gateway's configuration" },
      { name: MULTICHAIN_TAG, description: 'Every API v2 endpoint again in the multichain form `/{chain_id}/api/v2/...`, for any configured chain' },
    ],
    paths,
    components: {
      schemas,
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', description: 'API key as a Bearer token' },
        apiKeyAuth: { type: 'apiKey', in: 'query', name: 'apikey', description: 'API key as the `apikey` query parameter' },
        apiKeyHeader: { type: 'apiKey', in: 'header', name: 'x-api-key', description: 'API key in the `x-api-key` header' },
      },
    },
  });
}
