/**
 * The JSON-RPC subset and the gateway's config in our OpenAPI document: `POST /api/eth-rpc`
 * (one call or a batch; the methods from lib/rpc's registry) and `GET /api/json/config`.
 */
import { CONFIG_PATH, INSTANCE_RPC_PATH, MULTICHAIN_RPC_PATH } from '../paths.ts';
import type { JsonObject, JsonValue } from '../json.ts';
import { RPC_METHODS } from '../rpc/index.ts';

export const RPC_TAG = 'JSON-RPC';
export const CONFIG_TAG = 'gateway';

const ref = (name: string): JsonObject => ({ $ref: `#/components/schemas/${name}` });

export const RPC_SCHEMAS: Readonly<Record<string, JsonObject>> = {
  JsonRpcRequest: {
    title: 'JsonRpcRequest',
    type: 'object',
    properties: {
      jsonrpc: { type: 'string', enum: ['2.0'] },
      id: { type: ['integer', 'string', 'null'] },
      method: { type: 'string', enum: Object.keys(RPC_METHODS), description: 'The methods served: from the store, the chain-state ones forwarded to the node (`serve --rpc`)' },
      params: { type: 'array', items: {} },
    },
    required: ['jsonrpc', 'method'],
  },
  GatewayConfig: {
    title: 'GatewayConfig',
    type: 'object',
    properties: {
      chains: { type: 'object', description: "Each chain's base URL", additionalProperties: { type: 'string' } },
      credits: {
        type: 'object',
        properties: {
          default: { type: 'number' },
          endpoints: { type: 'object', description: 'Credits per request, by `METHOD path` below a chain\'s base URL', additionalProperties: { type: 'number' } },
          batch: { type: 'string', enum: ['per_call'] },
        },
        required: ['default', 'endpoints', 'batch'],
      },
    },
    required: ['chains', 'credits'],
  },
};

/** The example body of "Try it out" when the store gives nothing better. */
export const RPC_EXAMPLE: JsonObject = { jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] };

/** `errors`: the responses every request may get (401, 429, …). */
export function rpcPaths(errors: Readonly<Record<string, JsonValue>>): Record<string, JsonValue> {
  const oneOrBatch = (schema: JsonObject): JsonObject => ({ anyOf: [schema, { type: 'array', items: schema, minItems: 1 }] });
  return {
    [INSTANCE_RPC_PATH]: {
      post: {
        operationId: 'jsonRpc',
        summary: `JSON-RPC: one call or a batch (each call charged); also \`/{chain_id}${MULTICHAIN_RPC_PATH}\``,
        tags: [RPC_TAG],
        requestBody: {
          required: true,
          content: { 'application/json': { schema: oneOrBatch(ref('JsonRpcRequest')), examples: { eth_blockNumber: { value: RPC_EXAMPLE } } } },
        },
        responses: {
          '200': { description: 'The response of each call (a batch: in order)', content: { 'application/json': { schema: oneOrBatch(ref('JsonRpcResponse')) } } },
          ...errors,
        },
      },
    },
    [CONFIG_PATH]: {
      get: {
        operationId: 'gatewayConfig',
        summary: "The chains served and each one's base URL, and the credits each request costs",
        tags: [CONFIG_TAG],
        responses: { '200': { description: 'OK', content: { 'application/json': { schema: ref('GatewayConfig') } } }, ...errors },
      },
    },
  };
}
