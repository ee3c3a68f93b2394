/**
 * Validates our responses against the official OpenAPI documents:
 * - per-instance Blockscout 11.2.7 (`reference/openapi/blockscout/11.2.7/default/swagger.yaml`,
 *   server `/api`, so paths read `/v2/...`);
 * - the multichain Pro API 0.5.0 (`reference/openapi/services/pro-api/prod/swagger.json`,
 *   paths `/{chain_id}/api/v2/...`).
 *
 * The documents are OpenAPI 3.0: schemas are translated for ajv (`nullable: true` → null
 * allowed, also on `$ref`/`allOf`/`oneOf` wrappers; vendor keys and examples dropped;
 * `additionalProperties: false` kept). The only loosening is the named list SPEC_PATCHES, for
 * the known spec bugs of reference/openapi-notes.md §3.
 *
 * The documents are a test oracle found at $SCOUTKIT_OPENAPI_DIR (default
 * `../shared/reference/openapi` beside the repository). When they are absent, `officialSpecs()`
 * answers null after one loud line (off CI) or throws (under CI=true); every response is still
 * validated against our own document (./openapiOurs.ts).
 */
import { closeSync, existsSync, openSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import SwaggerParser from '@apidevtools/swagger-parser';
import { Ajv } from 'ajv';
import type { ErrorObject, ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';

export type ApiForm = 'instance' | 'pro';

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type JsonObject = { [k: string]: Json };

interface FormSpec {
  readonly form: ApiForm;
  /** prefix of every path of interest, before the part below /api/v2 */
  readonly prefix: string;
  /** dereferenced document (patches applied) */
  readonly doc: JsonObject;
  /**
   * normalised template (param names erased) → path key of the document: paths below /api/v2 by
   * their part below it, paths below /api/v1 in full (`/api/v1/search`)
   */
  readonly pathIndex: ReadonlyMap<string, string>;
}

export interface ApiSpecs {
  readonly instance: FormSpec;
  readonly pro: FormSpec;
  /** names of the patches applied, per form */
  readonly applied: Readonly<Record<ApiForm, readonly string[]>>;
}

/** The directory of the official OpenAPI documents. */
export function officialDir(): string {
  const env = process.env.SCOUTKIT_OPENAPI_DIR;
  if (env !== undefined && env !== '') return path.resolve(env);
  return fileURLToPath(new URL('../../../shared/reference/openapi/', import.meta.url));
}

export function specFiles(): Record<ApiForm, string> {
  const dir = officialDir();
  return {
    instance: path.join(dir, 'blockscout', '11.2.7', 'default', 'swagger.yaml'),
    pro: path.join(dir, 'services', 'pro-api', 'prod', 'swagger.json'),
  };
}

/** The files of specFiles() that are missing (empty when both are there). */
export function missingSpecFiles(): string[] {
  return Object.values(specFiles()).filter((file) => !existsSync(file));
}

let warned = false;

/**
 * Announce once per test run: tap runs each file in its own process, so the first process of a
 * run claims a marker file named after the runner (its pid and start time); outside tap, or
 * where that is unknown, once per process.
 */
function firstToWarn(): boolean {
  if (warned) return false;
  warned = true;
  const run = runnerKey();
  if (run === null) return true;
  try {
    closeSync(openSync(path.join(tmpdir(), `scoutkit-openapi-absent-${run}`), 'wx'));
    return true;
  } catch {
    return false; // another file of this run said it
  }
}

function runnerKey(): string | null {
  if (process.env.TAP !== '1') return null;
  try {
    const stat = readFileSync(`/proc/${process.ppid}/stat`, 'utf8');
    const startTime = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
    return startTime === undefined ? null : `${process.ppid}-${startTime}`;
  } catch {
    return null;
  }
}

/**
 * The official documents, or null when they are absent off CI (announced in one loud line per
 * test run). Under CI=true they are required: absent documents throw.
 */
export async function officialSpecs(): Promise<ApiSpecs | null> {
  const missing = missingSpecFiles();
  if (missing.length === 0) return loadApiSpecs();
  if (process.env.CI === 'true') {
    throw new Error(`CI=true requires the official OpenAPI documents: missing ${missing.join(', ')} (set SCOUTKIT_OPENAPI_DIR)`);
  }
  if (firstToWarn()) {
    console.error(
      `!!!!! OFFICIAL OPENAPI DOCUMENTS NOT FOUND at ${officialDir()} (set SCOUTKIT_OPENAPI_DIR) — SKIPPING THE CHECKS AGAINST THEM; OUR OWN DOCUMENT STILL VALIDATES EVERY BODY !!!!!`,
    );
  }
  return null;
}

// ---- which document holds a form ---------------------------------------------------------------

/**
 * Paths the Pro API 0.5.0 does not document at all (it has no `/config/*` path, no preview): their
 * multichain form is held to the 11.2.7 document, whose bodies it shares. Every other
 * multichain answer is held to the Pro API. test/support/openapi.test.ts checks the list.
 */
export const NOT_IN_PRO_API: readonly string[] = [
  '/config/backend-version',
  '/config/backend',
  '/config/indexer',
  '/config/csv-export',
  '/config/public-metrics',
  '/config/db-background-migrations',
  '/config/smart-contracts/languages',
  '/transactions/{transaction_hash_param}/preview',
];

/** The official document that holds an answer of ours: `form` is ours (`instance` | `multichain`). */
export function officialFormOf(form: 'instance' | 'multichain', pathTemplate: string): ApiForm {
  return form === 'multichain' && !NOT_IN_PRO_API.includes(pathTemplate) ? 'pro' : 'instance';
}

// ---- patches --------------------------------------------------------------------------------

export interface SpecPatch {
  readonly name: string;
  /** why (reference/openapi-notes.md §3) */
  readonly reason: string;
  /** applied to the raw document before dereferencing; throws when the target is not as expected */
  readonly apply: (schemas: JsonObject) => void;
}

const ref = (name: string): JsonObject => ({ $ref: `#/components/schemas/${name}` });

function schemaObject(schemas: JsonObject, name: string): JsonObject | null {
  const s = schemas[name];
  return s !== null && typeof s === 'object' && !Array.isArray(s) ? s : null;
}

function propertiesOf(schema: JsonObject, what: string): JsonObject {
  const p = schema.properties;
  if (p === null || typeof p !== 'object' || Array.isArray(p)) throw new Error(`${what}: no properties`);
  return p;
}

export const SPEC_PATCHES: readonly SpecPatch[] = [
  {
    name: 'raw-trace-parity-shapes',
    reason:
      'RawTrace describes only a successful call: the Parity-style traces Blockscout renders (and every tracing node answers) ' +
      'also hold a create (`init` instead of `input`, result {address, code, gasUsed}), a failed call or create (`error` instead ' +
      'of `result`) and a self-destruct (`type: "suicide"`, action {address, balance, refundAddress})',
    apply(schemas) {
      const s = schemaObject(schemas, 'RawTrace');
      const item = s?.items;
      if (!s || s.type !== 'array' || item === null || typeof item !== 'object' || Array.isArray(item)) {
        throw new Error(`patch raw-trace-parity-shapes: RawTrace is ${JSON.stringify(s)}`);
      }
      const props = propertiesOf(item, 'RawTrace.items');
      const { subtraces, traceAddress, action: callAction } = props;
      if (subtraces === undefined || traceAddress === undefined || callAction === undefined) {
        throw new Error(`patch raw-trace-parity-shapes: RawTrace.items is ${JSON.stringify(item)}`);
      }
      const actionProps = propertiesOf(callAction as JsonObject, 'RawTrace.items.action');
      // each document's own scalars (11.2.7: HexString; the Pro API: HexData)
      const hex = actionProps.gas;
      const address = actionProps.from;
      if (hex === undefined || address === undefined) throw new Error('patch raw-trace-parity-shapes: no action.gas / action.from');
      const object = (properties: JsonObject, required: string[]): JsonObject => ({ type: 'object', additionalProperties: false, required, properties });
      const place = { subtraces, traceAddress };
      const placed = ['action', 'subtraces', 'traceAddress', 'type'];
      const createAction = object({ from: address, gas: hex, init: hex, value: hex }, ['from', 'gas', 'init', 'value']);
      s.items = {
        anyOf: [
          item,
          object(
            {
              action: createAction,
              result: object({ address: address, code: hex, gasUsed: hex }, ['code', 'gasUsed']),
              ...place,
              type: { type: 'string', enum: ['create', 'create2'] },
            },
            [...placed, 'result'],
          ),
          object({ action: callAction, error: { type: 'string' }, ...place, type: { type: 'string', enum: ['call'] } }, [...placed, 'error']),
          object({ action: createAction, error: { type: 'string' }, ...place, type: { type: 'string', enum: ['create', 'create2'] } }, [...placed, 'error']),
          object(
            {
              action: object({ address: address, balance: hex, refundAddress: address }, ['address', 'balance']),
              ...place,
              type: { type: 'string', enum: ['suicide'] },
            },
            placed,
          ),
        ],
      };
    },
  },
  {
    name: 'transaction-to-nullable',
    reason: 'Transaction.to is null for a contract creation (the spec types it as a non-null Address)',
    apply(schemas) {
      let patched = 0;
      for (const name of ['Transaction', 'TransactionResponse']) {
        const s = schemaObject(schemas, name);
        if (!s) continue;
        const props = propertiesOf(s, name);
        const to = props.to;
        if (JSON.stringify(to) !== JSON.stringify(ref('Address'))) {
          throw new Error(`patch transaction-to-nullable: ${name}.to is ${JSON.stringify(to)}`);
        }
        props.to = { allOf: [ref('Address')], nullable: true };
        patched++;
      }
      if (patched === 0) throw new Error('patch transaction-to-nullable: no Transaction schema');
    },
  },
  {
    name: 'state-change-erc721-change',
    reason:
      'StateChange.change is an array of {direction, total} for ERC-721 entries (the spec allows only an integer string or null)',
    apply(schemas) {
      const s = schemaObject(schemas, 'StateChange');
      if (!s) throw new Error('patch state-change-erc721-change: no StateChange schema');
      if (!schemaObject(schemas, 'TotalERC721')) throw new Error('patch state-change-erc721-change: no TotalERC721');
      const props = propertiesOf(s, 'StateChange');
      const change = props.change;
      if (JSON.stringify(change) !== JSON.stringify(ref('IntegerStringNullable'))) {
        throw new Error(`patch state-change-erc721-change: StateChange.change is ${JSON.stringify(change)}`);
      }
      props.change = {
        anyOf: [
          ref('IntegerStringNullable'),
          {
            type: 'array',
            items: {
              type: 'object',
              additionalProperties: false,
              required: ['direction', 'total'],
              properties: {
                direction: { type: 'string', enum: ['from', 'to'] },
                total: ref('TotalERC721'),
              },
            },
          },
        ],
      };
    },
  },
  {
    name: 'constructor-args-array-values',
    reason:
      'SmartContract.decoded_constructor_args: the Pro API 0.5.0 allows only a string or an object in a `[value, abiInput]` pair, ' +
      'but Blockscout renders an array or tuple argument as a JSON array (DecodingHelper.value_json), as the 11.2.7 document allows',
    apply(schemas) {
      const s = schemaObject(schemas, 'SmartContract');
      if (!s) throw new Error('patch constructor-args-array-values: no SmartContract schema');
      const field = propertiesOf(s, 'SmartContract').decoded_constructor_args as JsonObject | undefined;
      const pair = field?.items as JsonObject | undefined;
      const part = pair?.items as JsonObject | undefined;
      const anyOf = part?.anyOf;
      if (field?.type !== 'array' || pair?.type !== 'array' || !Array.isArray(anyOf)) {
        throw new Error(`patch constructor-args-array-values: decoded_constructor_args is ${JSON.stringify(field)}`);
      }
      const types = anyOf.map((a) => (a !== null && typeof a === 'object' && !Array.isArray(a) ? a.type : null));
      if (!types.includes('string') || !types.includes('object')) {
        throw new Error(`patch constructor-args-array-values: a pair's part is ${JSON.stringify(part)}`);
      }
      if (!types.includes('array')) anyOf.push({ type: 'array' });
    },
  },
];

// ---- OpenAPI 3.0 → JSON Schema (ajv) -----------------------------------------------------------

/** keys that are not validation keywords in a schema object */
const DROPPED = new Set(['example', 'examples', 'nullable', 'xml', 'externalDocs', 'discriminator', 'deprecated']);
/** keywords whose value is a map from names to schemas (names must not be interpreted) */
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', 'definitions', '$defs', 'dependentSchemas']);
/** keywords whose value is data, not a schema */
const DATA = new Set(['enum', 'const', 'default', 'required']);

const translated = new WeakMap<object, Json>();

export function toJsonSchema(schema: Json): Json {
  if (schema === null || typeof schema !== 'object') return schema;
  if (Array.isArray(schema)) return schema.map(toJsonSchema);
  const memo = translated.get(schema);
  if (memo !== undefined) return memo;
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(schema)) {
    if (DROPPED.has(k) || k.startsWith('x-')) continue;
    if (DATA.has(k)) out[k] = v;
    else if (SCHEMA_MAPS.has(k) && v !== null && typeof v === 'object' && !Array.isArray(v)) {
      out[k] = Object.fromEntries(Object.entries(v).map(([name, s]) => [name, toJsonSchema(s)]));
    } else out[k] = toJsonSchema(v);
  }
  let result: Json = out;
  if (schema.nullable === true) {
    const composite = 'allOf' in out || 'anyOf' in out || 'oneOf' in out || '$ref' in out || 'not' in out;
    if (typeof out.type === 'string' && !composite) {
      out.type = [out.type, 'null'];
      if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
    } else {
      result = { anyOf: [out, { type: 'null' }] };
    }
  }
  translated.set(schema, result);
  return result;
}

// ---- loading --------------------------------------------------------------------------------

function normaliseTemplate(p: string): string {
  const trimmed = p.length > 1 && p.endsWith('/') ? p.slice(0, -1) : p;
  return trimmed.replace(/\{[^}]*\}/g, '{}');
}

async function loadForm(form: ApiForm, file: string, prefix: string, v1Prefix: string): Promise<{ spec: FormSpec; applied: string[] }> {
  const raw = (await SwaggerParser.parse(file)) as unknown as JsonObject;
  const components = raw.components as JsonObject | undefined;
  const schemas = components?.schemas as JsonObject | undefined;
  if (!schemas) throw new Error(`${file}: no components.schemas`);
  const applied: string[] = [];
  for (const patch of SPEC_PATCHES) {
    patch.apply(schemas);
    applied.push(patch.name);
  }
  const doc = (await SwaggerParser.dereference(raw as never)) as unknown as JsonObject;
  const pathIndex = new Map<string, string>();
  for (const key of Object.keys((doc.paths as JsonObject | undefined) ?? {})) {
    if (key.startsWith(prefix)) pathIndex.set(normaliseTemplate(key.slice(prefix.length)), key);
    else if (key.startsWith(`${v1Prefix}/`)) pathIndex.set(normaliseTemplate(`/api/v1${key.slice(v1Prefix.length)}`), key);
  }
  return { spec: { form, prefix, doc, pathIndex }, applied };
}

let cached: Promise<ApiSpecs> | null = null;

/** Parse, patch and dereference both documents (once per process). */
export function loadApiSpecs(): Promise<ApiSpecs> {
  cached ??= (async () => {
    const files = specFiles();
    const [instance, pro] = await Promise.all([
      loadForm('instance', files.instance, '/v2', '/v1'),
      loadForm('pro', files.pro, '/{chain_id}/api/v2', '/{chain_id}/api/v1'),
    ]);
    return {
      instance: instance.spec,
      pro: pro.spec,
      applied: { instance: instance.applied, pro: pro.applied },
    };
  })();
  return cached;
}

// ---- validation -----------------------------------------------------------------------------

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

function makeAjv(): Ajv {
  // no optimising pass over the generated code: each validator runs a few times and is compiled once,
  // and that pass was about a sixth of the memory store's conformance file's CPU
  const ajv = new Ajv({ allErrors: true, strict: false, validateFormats: true, code: { optimize: false } });
  addFormats(ajv);
  // OpenAPI numeric formats: informative only
  for (const f of ['float', 'double', 'int32', 'int64', 'uint64']) ajv.addFormat(f, true);
  return ajv;
}

const ajv = makeAjv();
const compiled = new Map<string, ValidateFunction | string>();

/** The raw (dereferenced, patched, untranslated) response schema, or an error text. */
export function responseSchema(
  specs: ApiSpecs,
  form: ApiForm,
  pathTemplate: string,
  status: number,
): { schema: Json; key: string } | string {
  const spec = specs[form];
  const key = spec.pathIndex.get(normaliseTemplate(pathTemplate));
  if (key === undefined) return `${form}: no path ${pathTemplate} in the OpenAPI document`;
  const item = (spec.doc.paths as JsonObject)[key] as JsonObject;
  const op = item.get as JsonObject | undefined;
  if (!op) return `${form}: no GET operation on ${key}`;
  const responses = op.responses as JsonObject | undefined;
  const response = (responses?.[String(status)] ?? responses?.default) as JsonObject | undefined;
  if (!response) return `${form}: GET ${key} documents no ${status} response`;
  const content = response.content as JsonObject | undefined;
  const media = (content?.['application/json'] ?? null) as JsonObject | null;
  if (!media || media.schema === undefined) return `${form}: GET ${key} ${status} has no application/json schema`;
  return { schema: media.schema, key };
}

/** The media types an official document lists for a response (`application/csv` for the CSV exports), or an error text. */
export function documentedMediaTypes(specs: ApiSpecs, form: ApiForm, pathTemplate: string, status: number): string[] | string {
  const spec = specs[form];
  const key = spec.pathIndex.get(normaliseTemplate(pathTemplate));
  if (key === undefined) return `${form}: no path ${pathTemplate} in the OpenAPI document`;
  const op = ((spec.doc.paths as JsonObject)[key] as JsonObject).get as JsonObject | undefined;
  const response = (op?.responses as JsonObject | undefined)?.[String(status)] as JsonObject | undefined;
  if (response === undefined) return `${form}: GET ${key} documents no ${status} response`;
  return Object.keys((response.content as JsonObject | undefined) ?? {});
}

function validatorFor(specs: ApiSpecs, form: ApiForm, pathTemplate: string, status: number): ValidateFunction | string {
  const cacheKey = `${form} ${normaliseTemplate(pathTemplate)} ${status}`;
  const hit = compiled.get(cacheKey);
  if (hit !== undefined) return hit;
  const found = responseSchema(specs, form, pathTemplate, status);
  let result: ValidateFunction | string;
  if (typeof found === 'string') result = found;
  else {
    try {
      result = ajv.compile(toJsonSchema(found.schema) as object);
    } catch (e) {
      result = `${form}: cannot compile the schema of GET ${found.key} ${status}: ${(e as Error).message}`;
    }
  }
  compiled.set(cacheKey, result);
  return result;
}

function describe(e: ErrorObject): string {
  const where = e.instancePath === '' ? '(root)' : e.instancePath;
  const p = e.params as Record<string, unknown>;
  const detail =
    e.keyword === 'additionalProperties'
      ? ` '${String(p.additionalProperty)}'`
      : e.keyword === 'enum'
        ? ` ${JSON.stringify(p.allowedValues)}`
        : '';
  return `${where}: ${e.message ?? e.keyword}${detail}`;
}

/**
 * Validate a response body. `pathTemplate` is the part below /api/v2 with the document's
 * parameter names or any names in braces (`/addresses/{address_hash_param}/tokens`), or a
 * path below /api/v1 in full (`/api/v1/search`).
 * Returns human-readable errors; empty means valid. The body must be plain JSON (numbers,
 * not bigints): pass `JSON.parse(text)` of what the API writes.
 */
export function validateResponse(
  specs: ApiSpecs,
  form: ApiForm,
  pathTemplate: string,
  status: number,
  body: unknown,
): string[] {
  const v = validatorFor(specs, form, pathTemplate, status);
  if (typeof v === 'string') return [v];
  if (v(body)) return [];
  const errors = (v.errors ?? []).map(describe);
  return [...new Set(errors)];
}
