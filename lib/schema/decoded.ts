/** Decoded call input, event and revert reason, as lib/render/decode.ts renders them. */
import * as t from 'io-ts';
import type { JsonValue } from '../json.ts';
import { component, withSchema } from '../openapi/jsonSchema.ts';

/** A decoded ABI value: a string, or a list of them (nested for nested arrays); any value of a parsed JSON body passes. */
const DecodedValue = withSchema(new t.Type<JsonValue>('AbiValue', (u): u is JsonValue => true, (u) => t.success(u as JsonValue), t.identity), {
  anyOf: [{ type: 'string' }, { type: 'array' }],
});

export const DecodedInput = component(
  'DecodedInput',
  t.type({
    method_call: t.string,
    method_id: t.string,
    parameters: t.readonlyArray(t.type({ name: t.string, type: t.string, value: DecodedValue })),
  }),
);

export const DecodedLog = component(
  'DecodedLog',
  t.type({
    method_call: t.string,
    method_id: t.string,
    parameters: t.readonlyArray(t.type({ indexed: t.boolean, name: t.string, type: t.string, value: DecodedValue })),
  }),
);
