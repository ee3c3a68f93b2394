/**
 * io-ts codecs → JSON Schema (the dialect of OpenAPI 3.1). Codecs built from io-ts's own
 * combinators convert by their `_tag`; a custom codec (a parameter codec, a pattern-checked
 * string) carries its schema as `jsonSchema` (see `withSchema`); a codec marked with
 * `component` becomes a `$ref` to `#/components/schemas/<name>`.
 *
 * Objects are exact (`additionalProperties: false`): the API's resources forbid extra keys.
 * `t.type` members are required, `t.partial` members optional; an intersection of object
 * codecs becomes one object.
 */
import * as t from 'io-ts';
import type { JsonObject, JsonValue } from '../json.ts';

/** A JSON Schema object. */
export type JsonSchema = JsonObject;

/** A codec with its JSON Schema attached. */
export interface Described {
  readonly jsonSchema: JsonSchema;
}

/** A codec named as a reusable component. */
export interface Named {
  readonly componentName: string;
}

/** io-ts's own codecs, shared by every schema: a schema attached to one would describe them all. */
const SHARED_CODECS: ReadonlySet<unknown> = new Set<unknown>([
  t.string,
  t.number,
  t.boolean,
  t.bigint,
  t.null,
  t.undefined,
  t.unknown,
  t.UnknownRecord,
  t.UnknownArray,
  t.Int,
]);

/** Attach a schema to a codec built for the purpose (never to a shared io-ts primitive: that throws). */
export function withSchema<C extends t.Any>(codec: C, schema: JsonSchema): C & Described {
  if (SHARED_CODECS.has(codec)) throw new Error(`withSchema: ${codec.name} is io-ts's shared codec; give a codec of its own (describedString)`);
  return Object.assign(codec, { jsonSchema: schema });
}

/** A string codec of its own, described by `schema` (as `t.string` decodes). */
export function describedString(name: string, schema: JsonSchema): t.Type<string> & Described {
  return withSchema(new t.Type<string>(name, t.string.is, t.string.validate, t.identity), schema);
}

/** Mark a codec as the component `name` (rendered once, referenced everywhere). */
export function component<C extends t.Any>(name: string, codec: C): C & Named {
  return Object.assign(codec, { componentName: name });
}

/** Where converted components are collected, by name. */
export type Components = Map<string, JsonSchema>;

interface Tagged {
  readonly _tag?: string;
  readonly name: string;
  readonly jsonSchema?: JsonSchema;
  readonly componentName?: string;
  readonly props?: Readonly<Record<string, t.Any>>;
  readonly types?: readonly t.Any[];
  readonly type?: t.Any;
  readonly value?: JsonValue;
  readonly keys?: Readonly<Record<string, unknown>>;
  readonly codomain?: t.Any;
}

/**
 * The JSON Schema of a codec. With `components`, named codecs are collected there and
 * referenced; without, they are inlined.
 */
export function toJsonSchema(codec: t.Decoder<unknown, unknown>, components?: Components): JsonSchema {
  const c = codec as unknown as Tagged;
  if (c.componentName !== undefined && components !== undefined) {
    const name = c.componentName;
    if (!components.has(name)) {
      components.set(name, {}); // placeholder: a recursive reference stops here
      components.set(name, { title: name, ...convert(c, components) });
    }
    return { $ref: `#/components/schemas/${name}` };
  }
  return convert(c, components);
}

function convert(c: Tagged, components: Components | undefined): JsonSchema {
  if (c.jsonSchema !== undefined) return c.jsonSchema;
  const inner = (x: t.Any): JsonSchema => toJsonSchema(x, components);
  switch (c._tag) {
    case 'StringType':
      return { type: 'string' };
    case 'NumberType':
      return { type: 'number' };
    case 'BooleanType':
      return { type: 'boolean' };
    case 'NullType':
      return { type: 'null' };
    case 'UnknownType':
      return {};
    case 'LiteralType':
      return c.value === null ? { type: 'null' } : { type: typeof c.value, enum: [c.value ?? null] };
    case 'KeyofType':
      return { type: 'string', enum: Object.keys(c.keys ?? {}) };
    case 'InterfaceType':
    case 'PartialType': {
      const props = c.props ?? {};
      const properties = Object.fromEntries(Object.entries(props).map(([k, v]) => [k, inner(v)]));
      return {
        type: 'object',
        properties,
        ...(c._tag === 'InterfaceType' && Object.keys(props).length > 0 ? { required: Object.keys(props) } : {}),
        additionalProperties: false,
      };
    }
    case 'IntersectionType':
      return mergeObjects((c.types ?? []).map(inner), c.name);
    case 'UnionType':
      return union((c.types ?? []).map(inner));
    case 'ArrayType':
    case 'ReadonlyArrayType':
      return { type: 'array', items: inner(c.type as t.Any) };
    case 'DictionaryType':
      return { type: 'object', additionalProperties: inner(c.codomain as t.Any) };
    case 'ExactType':
    case 'ReadonlyType':
    case 'RefinementType':
      return inner(c.type as t.Any);
    default:
      throw new Error(`no JSON Schema for the codec ${c.name} (attach one with withSchema)`);
  }
}

const isPlainObject = (s: JsonSchema): boolean => s.type === 'object' && s.$ref === undefined && typeof s.properties === 'object';

function mergeObjects(parts: readonly JsonSchema[], name: string): JsonSchema {
  if (!parts.every(isPlainObject)) throw new Error(`${name}: only plain object codecs intersect (no components, no unions)`);
  const properties: Record<string, JsonValue> = {};
  const required: string[] = [];
  for (const p of parts) {
    Object.assign(properties, p.properties);
    if (Array.isArray(p.required)) for (const r of p.required) if (typeof r === 'string' && !required.includes(r)) required.push(r);
  }
  return { type: 'object', properties, ...(required.length > 0 ? { required } : {}), additionalProperties: false };
}

/** `X | null` as `type: [X, 'null']` where X is a plain type; same-typed enums merged; else anyOf. */
function union(members: readonly JsonSchema[]): JsonSchema {
  const nulls = members.filter((m) => m.type === 'null' && Object.keys(m).length === 1);
  const rest = members.filter((m) => !nulls.includes(m));
  const enums = rest.every((m) => Array.isArray(m.enum) && m.type === rest[0]?.type && Object.keys(m).length === 2);
  let merged: JsonSchema | null = null;
  if (rest.length === 1) merged = rest[0] ?? null;
  else if (rest.length > 1 && enums) merged = { type: rest[0]?.type ?? null, enum: rest.flatMap((m) => m.enum as JsonValue[]) };
  if (merged === null) return { anyOf: [...members] };
  if (nulls.length === 0) return merged;
  if (typeof merged.type === 'string' && merged.anyOf === undefined && merged.$ref === undefined) {
    return {
      ...merged,
      type: [merged.type, 'null'],
      ...(Array.isArray(merged.enum) ? { enum: [...merged.enum, null] } : {}),
    };
  }
  return { anyOf: [merged, { type: 'null' }] };
}
