/** `/tokens/{h}/counters` (strings) and `/tokens/{h}/instances/{id}/transfers-count` (a number). */
import * as t from 'io-ts';
import { component } from '../openapi/jsonSchema.ts';
import { Integer, IntegerString } from './scalars.ts';

export const TokenCounters = component('TokenCounters', t.type({ token_holders_count: IntegerString, transfers_count: IntegerString }));

export const TokenInstanceTransfersCount = component('TokenInstanceTransfersCount', t.type({ transfers_count: Integer }));
