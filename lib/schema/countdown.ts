/** `/blocks/{n}/countdown`: Blockscout 11.2.7's body, and the Pro API 0.5.0's (other keys, numbers). */
import * as t from 'io-ts';
import { component, withSchema } from '../openapi/jsonSchema.ts';
import { Integer, IntegerString } from './scalars.ts';

/** Seconds with one decimal, as a string: `"120.0"`. */
const Seconds = component(
  'DecimalSeconds',
  withSchema(
    new t.Type<string, string, unknown>(
      'DecimalSeconds',
      (u): u is string => typeof u === 'string' && /^[0-9]+\.[0-9]$/.test(u),
      (u, c) => (typeof u === 'string' && /^[0-9]+\.[0-9]$/.test(u) ? t.success(u) : t.failure(u, c)),
      t.identity,
    ),
    { type: 'string', pattern: '^[0-9]+\\.[0-9]$', description: 'seconds, one decimal' },
  ),
);

export const BlockCountdown = component(
  'BlockCountdown',
  t.type({
    current_block_number: IntegerString,
    countdown_block_number: IntegerString,
    remaining_blocks_count: IntegerString,
    estimated_time_in_seconds: Seconds,
  }),
);

const NonNegative = withSchema(new t.Type<number, number, unknown>('NonNegativeNumber', (u): u is number => typeof u === 'number' && u >= 0, (u, c) => (typeof u === 'number' && u >= 0 ? t.success(u) : t.failure(u, c)), t.identity), {
  type: 'number',
  minimum: 0,
});

export const ProBlockCountdown = component(
  'ProBlockCountdown',
  t.type({
    current_block: Integer,
    countdown_block: Integer,
    remaining_blocks: Integer,
    estimated_time_in_sec: NonNegative,
  }),
);
