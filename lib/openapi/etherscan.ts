/**
 * The Etherscan-compatible dialect in our OpenAPI document: one operation per action of the
 * registry (lib/etherscan), each under its own path key `/api?module=<m>&action=<a>`. OpenAPI
 * allows one GET per path, and the dialect has one path for all its actions: the key carries
 * the action's fixed query, which swagger-ui's "Try it out" (swagger-client) keeps and merges
 * the parameters into, so the request is the real `/api?module=…&action=…&…`.
 */
import { ETHERSCAN_ACTIONS } from '../etherscan/index.ts';
import type { EtherscanAction } from '../etherscan/index.ts';
import type { EtherscanParam } from '../etherscan/paramDocs.ts';
import type { JsonObject, JsonValue } from '../json.ts';
import { COMMON_QUERY } from '../params/decode.ts';

/** The path key of an action. */
export const etherscanPathKey = (a: Pick<EtherscanAction, 'module' | 'action'>): string => `/api?module=${a.module}&action=${a.action}`;

/** The tag of a module's actions. */
export const etherscanTag = (module: string): string => `Etherscan: ${module}`;

/** The action of a path key, or undefined. */
export function etherscanActionOf(pathKey: string): EtherscanAction | undefined {
  return BY_KEY.get(pathKey);
}

const BY_KEY = new Map(ETHERSCAN_ACTIONS.map((a) => [etherscanPathKey(a), a]));

export const ETHERSCAN_SCHEMAS: Readonly<Record<string, JsonObject>> = {
  EtherscanEnvelope: {
    title: 'EtherscanEnvelope',
    type: 'object',
    description: 'Blockscout\'s envelope: status "1" and message "OK" with the result, or status "0" with what went wrong',
    properties: { status: { type: 'string', enum: ['0', '1'] }, message: { type: 'string' }, result: {} },
    required: ['status', 'message', 'result'],
  },
  JsonRpcResponse: {
    title: 'JsonRpcResponse',
    type: 'object',
    properties: {
      jsonrpc: { type: 'string', enum: ['2.0'] },
      id: { type: ['integer', 'string', 'null'] },
      result: {},
      error: {
        type: 'object',
        properties: { code: { type: 'integer' }, message: { type: 'string' }, data: {} },
        required: ['code', 'message'],
      },
    },
    required: ['jsonrpc', 'id'],
  },
};

const ref = (name: string): JsonObject => ({ $ref: `#/components/schemas/${name}` });

function parameter(p: EtherscanParam): JsonObject {
  return {
    name: p.name,
    in: 'query',
    ...(p.required === true ? { required: true } : {}),
    description: p.description,
    schema: p.enum === undefined ? { type: 'string' } : { type: 'string', enum: [...p.enum] },
  };
}

function body(a: EtherscanAction): JsonObject {
  if (a.shape === 'json-rpc') return ref('JsonRpcResponse');
  if (a.shape === 'bare') return {};
  return ref('EtherscanEnvelope');
}

function operation(a: EtherscanAction, errors: Readonly<Record<string, JsonValue>>): JsonObject {
  return {
    operationId: `etherscan_${a.module}_${a.action}`,
    summary: a.summary,
    tags: [etherscanTag(a.module)],
    parameters: [...a.params.map(parameter), { name: 'apikey', in: 'query', description: 'API key (also `Authorization: Bearer <key>` or `x-api-key`)', schema: COMMON_QUERY.apikey.jsonSchema }],
    responses: {
      '200': {
        description: a.shape === 'json-rpc' ? 'A JSON-RPC response (result or error)' : 'The answer (a bad parameter or nothing found is status "0" with a message)',
        content: { 'application/json': { schema: body(a) } },
      },
      '400': { description: 'Missing or unknown module or action', content: { 'application/json': { schema: ref('EtherscanEnvelope') } } },
      ...errors,
    },
  };
}

/** The operations of every action, by path key. `errors`: the responses every request may get (401, 429, …). */
export function etherscanPaths(errors: Readonly<Record<string, JsonValue>>): Record<string, JsonValue> {
  return Object.fromEntries(ETHERSCAN_ACTIONS.map((a) => [etherscanPathKey(a), { get: operation(a, errors) }]));
}

/** The modules, in the registry's order. */
export const ETHERSCAN_TAGS: readonly string[] = [...new Set(ETHERSCAN_ACTIONS.map((a) => a.module))];
