/**
 * Our OpenAPI document (lib's openApiDocument, served at /api/v2/openapi.json): a valid
 * OpenAPI 3.1 document generated from the registry, describing every explorer endpoint in both
 * forms; and, when the official documents are present, every operation of ours exists there
 * with compatible parameters (per-instance 11.2.7 for `/api/v2`, Pro API 0.5.0 for
 * `/{chain_id}/api/v2`).
 */
import t from 'tap';
import SwaggerParser from '@apidevtools/swagger-parser';
import * as iots from 'io-ts';
import { withSchema } from '../../lib/openapi/jsonSchema.ts';
import { createMemoryStore } from '../../adapters/memory/index.ts';
import { createExplorer, ENDPOINTS, openApiDocument, OPENAPI_PATH, toJson } from '../../lib/index.ts';
import { EXPLORER_ENDPOINTS, templateOf, VERIFICATION_ENDPOINTS } from '../conformance/cases.ts';
import { NOT_IN_PRO_API, officialSpecs, toJsonSchema } from '../support/openapi.ts';
import { ourDocument, ourPath } from '../support/openapiOurs.ts';

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type Obj = { [k: string]: Json };
interface Parameter {
  readonly name: string;
  readonly in: string;
  readonly schema: Json;
}

const doc = ourDocument();
/** the API v2's paths (the other dialects: test/lib/openapi-dialects.test.ts) */
const paths = Object.fromEntries(Object.entries(doc.paths as Obj).filter(([p]) => /^(\/\{chain_id\})?\/api\/v[12]\//.test(p))) as Obj;
const operationOf = (p: string): Obj => (paths[p] as Obj).get as Obj;
const parametersOf = (op: Obj): Parameter[] => (op.parameters as unknown as Parameter[] | undefined) ?? [];

t.test('a valid OpenAPI 3.1 document', async (t) => {
  t.equal(doc.openapi, '3.1.0');
  // swagger-parser validates against the OpenAPI 3.1 schema and resolves every $ref
  await t.resolves(SwaggerParser.validate(structuredClone(doc) as never), 'swagger-parser validate');
  t.ok(toJson(doc as never).length > 10_000, 'not empty');
});

t.test('generated from the registry: every explorer endpoint, both forms, nothing else in the API v2', async (t) => {
  const expected = [...EXPLORER_ENDPOINTS, ...VERIFICATION_ENDPOINTS].flatMap((name) => (['instance', 'multichain'] as const).map((form) => ourPath(form, templateOf(name))));
  t.same(Object.keys(paths).sort(), expected.sort(), `${expected.length} paths: 2 × ${EXPLORER_ENDPOINTS.length} endpoints`);
  t.notOk(Object.keys(paths).some((p) => p.endsWith(OPENAPI_PATH)), 'the document does not list itself');
  for (const name of EXPLORER_ENDPOINTS) {
    for (const form of ['instance', 'multichain'] as const) {
      const op = operationOf(ourPath(form, templateOf(name)));
      t.equal(op.operationId, form === 'instance' ? name : `${name}Multichain`);
      const inPath = [...ourPath(form, templateOf(name)).matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
      const declared = parametersOf(op).filter((p) => p.in === 'path').map((p) => p.name);
      t.same(declared.sort(), inPath.sort(), `${form} ${name}: the path parameters of its route`);
      const query = parametersOf(op).filter((p) => p.in === 'query').map((p) => p.name);
      // a codec `x[y]` is the property y of the deepObject parameter x
      const codecs = [...new Set(Object.keys(ENDPOINTS[name].query).map((q) => q.replace(/\[[^\]]+\]$/, '')))];
      t.same(query.filter((q) => codecs.includes(q)).sort(), codecs.sort(), `${form} ${name}: every query codec is a parameter`);
      for (const p of parametersOf(op).filter((x) => x.in === 'query' && /\[/.test(x.name))) t.fail(`${form} ${name}: ${p.name} is folded into its object`);
      for (const p of parametersOf(op)) t.ok(p.schema !== null && typeof p.schema === 'object', `${form} ${name} ${p.name}: a schema`);
      const responses = op.responses as Obj;
      for (const status of ['200', '401', '402', '403', '404', '422', '429', '503']) t.ok(responses[status], `${form} ${name}: documents ${status}`);
    }
  }
});

t.test('the forms differ where the Pro API bodies differ', async (t) => {
  const body = (p: string): string => JSON.stringify((((operationOf(p).responses as Obj)['200'] as Obj).content as Obj)['application/json']);
  t.match(body('/{chain_id}/api/v2/internal-transactions'), /meta/, 'multichain internal-transaction lists carry meta');
  t.notMatch(body('/api/v2/internal-transactions'), /meta/, 'per-instance ones do not');
  t.match(body('/{chain_id}/api/v2/tokens/{address_hash_param}/instances'), /TokenInstanceListItemMultichain/);
  const schemas = (doc.components as Obj).schemas as Obj;
  const multichainItem = schemas.TokenInstanceListItemMultichain as Obj;
  t.notOk('token' in (multichainItem.properties as Obj), 'no embedded token in multichain instance list items');
  t.ok('token' in ((schemas.TokenInstanceListItem as Obj).properties as Obj), 'per-instance items embed it');
  const chain = parametersOf(operationOf('/{chain_id}/api/v2/blocks')).find((p) => p.name === 'chain_id');
  t.same(chain?.schema, { type: 'string', enum: ['1', '5'] }, 'chain_id: the configured chains');
});

t.test('resources come from the io-ts codecs', async (t) => {
  const schemas = (doc.components as Obj).schemas as Obj;
  for (const name of ['Address', 'Block', 'Transaction', 'TokenTransfer', 'Log', 'Token', 'TokenInstance', 'InternalTransaction', 'StateChange', 'TokenBalance', 'NftCollection']) {
    const s = schemas[name] as Obj | undefined;
    t.equal(s?.type, 'object', `${name} is a component`);
    t.equal(s?.additionalProperties, false, `${name} is exact`);
  }
  const tx = (schemas.Transaction as Obj).properties as Obj;
  t.same(tx.to, { anyOf: [{ $ref: '#/components/schemas/Address' }, { type: 'null' }] }, 'X | null on a component');
  t.same(tx.status, { type: ['string', 'null'], enum: ['ok', 'error', null] }, 'literal unions become one enum');
  t.same(tx.block_number, { type: ['integer', 'null'] }, 'X | null on a scalar');
  const item = schemas.TokenInstanceListItem as Obj;
  t.notOk((item.required as string[]).includes('value'), 'partial members are optional');
  t.ok((item.required as string[]).includes('id'), 'type members are required');
});

t.test('served through lib in both forms, like the document', async (t) => {
  const explorer = createExplorer({ chains: { '1': createMemoryStore(), '5': createMemoryStore() } });
  const expected = openApiDocument({ chainIds: ['1', '5'] });
  for (const path of ['/api/v2/openapi.json', '/5/api/v2/openapi.json']) {
    const r = await explorer.handle({ path });
    t.equal(r.status, 200, path);
    t.same(r.body, expected, `${path}: openApiDocument({ chainIds })`);
  }
  t.same(openApiDocument({ chainIds: ['1'], serverUrl: 'https://x.example/explorer' }).servers, [{ url: 'https://x.example/explorer' }], 'serverUrl');
});

/** Parameter names ours accepts beyond an official operation's, and why. */
const EXTRA_PARAMETERS: Readonly<Record<string, string>> = {
  'query:key': 'the secret key of restricted addresses, in both forms',
  'query:apikey': 'the API key on /transactions/stats too, where 11.2.7 declares no parameter at all (our hosts read the key from it)',
  'query:items_count': 'the page size on every list (the spec; Pro documents it, 11.2.7 not everywhere)',
  'query:limit': "11.2.7's alias of items_count, accepted in both forms",
  'query:include_zero_value': "Pro's internal-transaction filter, accepted in both forms",
  'query:state_changes': "11.2.7's state-changes cursor, accepted in both forms",
  'query:state_changes_count': "Pro's state-changes cursor, accepted in both forms",
  'query:method': 'the spec lists it on /transactions',
  'query:block_number': "the /smart-contracts cursor (every created contract, by creation block; Blockscout's smart_contract_id is a verification id)",
  'query:token_name': 'a next_page_params key of address tokens, sent back',
  'query:token_type': 'a next_page_params key of address tokens, sent back',
  'query:token_contract_address_hash': 'a next_page_params key of address tokens, sent back',
  'query:token_id': 'a next_page_params key of address tokens, sent back',
};

/** The JSON types a schema admits (null left out: query values are never null). */
function typesOf(schema: Json): Set<string> {
  const out = new Set<string>();
  if (schema === null || typeof schema !== 'object' || Array.isArray(schema)) return out;
  const type = schema.type;
  if (typeof type === 'string') out.add(type);
  if (Array.isArray(type)) for (const x of type) if (typeof x === 'string') out.add(x);
  for (const key of ['anyOf', 'oneOf', 'allOf']) {
    const list = schema[key];
    if (Array.isArray(list)) for (const s of list) for (const x of typesOf(s)) out.add(x);
  }
  out.delete('null');
  return out;
}

const compatible = (official: Set<string>, ours: Set<string>): boolean =>
  [...official].every((x) => ours.has(x) || (x === 'integer' && ours.has('number')));

t.test('every operation exists in the official documents, with compatible parameters', async (t) => {
  const specs = await officialSpecs();
  if (specs === null) {
    t.pass('the official documents are absent off CI: not compared (see the loud line)');
    return;
  }
  const used = new Set<string>();
  // contract verification: Blockscout serves it, neither official document lists it (POSTs, and the verifier's config)
  const verification = VERIFICATION_ENDPOINTS.map((name) => templateOf(name));
  for (const [p, item] of Object.entries(paths)) {
    const multichain = p.startsWith('/{chain_id}');
    if (verification.some((route) => p.endsWith(`/api/v2${route}`))) {
      t.ok(item, `${p}: verification, in no official document`);
      continue;
    }
    if (multichain && NOT_IN_PRO_API.some((route) => p === `/{chain_id}/api/v2${route}`)) {
      // the Pro API has no such path: the same codecs are compared with 11.2.7 through the instance form
      t.ok(paths[p.replace(/^\/\{chain_id\}/, '')], `${p}: not in the Pro API; compared through its instance form`);
      continue;
    }
    const spec = multichain ? specs.pro : specs.instance;
    const key = multichain ? p : p.replace(/^\/api\/(v[12])\//, '/$1/');
    const official = ((spec.doc.paths as Obj)[key] as Obj | undefined)?.get as Obj | undefined;
    if (official === undefined) {
      t.fail(`${p}: no GET ${key} in the ${multichain ? 'Pro API 0.5.0' : '11.2.7'} document`);
      continue;
    }
    const ours = parametersOf((item as Obj).get as Obj);
    const theirs = parametersOf(official);
    const id = (x: Parameter): string => `${x.in}:${x.name}`;
    const oursById = new Map(ours.map((x) => [id(x), x]));
    const missing = theirs.filter((x) => !oursById.has(id(x))).map(id);
    t.same(missing, [], `${p}: every official parameter is ours (never a 422 for a declared parameter)`);
    const extra = ours.map(id).filter((x) => !theirs.some((o) => id(o) === x));
    for (const x of extra) used.add(x);
    t.same(extra.filter((x) => EXTRA_PARAMETERS[x] === undefined), [], `${p}: extra parameters are the known ones`);
    for (const o of theirs) {
      const mine = oursById.get(id(o));
      if (mine === undefined) continue;
      const want = typesOf(toJsonSchema(o.schema));
      const have = typesOf(mine.schema);
      t.ok(want.size > 0 && compatible(want, have), `${p} ${o.name}: official ${[...want].join('|')} ⊆ ours ${[...have].join('|')}`);
    }
  }
  t.same([...used].sort(), Object.keys(EXTRA_PARAMETERS).sort(), 'every listed extra is still needed');
});

t.test('only the CSV bodies are described as CSV; an error message says what it is', async (t) => {
  const text = JSON.stringify(doc);
  const csvBodies = Object.values(paths).filter((p) => JSON.stringify(p).includes('"text/csv"')).length;
  t.ok(csvBodies > 0, `${csvBodies} CSV operations`);
  t.equal(text.split('RFC 4180').length - 1, csvBodies, 'the CSV description on the CSV bodies, nowhere else');
  const message = ((((doc.components as Obj).schemas as Obj).MessageError as Obj).properties as Obj).message as Obj;
  t.same(message.type, 'string');
  t.match(message.description, /what went wrong/);
  t.throws(() => withSchema(iots.string, { type: 'string', description: 'x' }), /shared codec/, "io-ts's shared t.string is never annotated");
});
