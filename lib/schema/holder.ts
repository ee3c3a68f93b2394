/** A token holder row of `/tokens/{h}/holders` and `/tokens/{h}/instances/{id}/holders`. */
import * as t from 'io-ts';
import { component } from '../openapi/jsonSchema.ts';
import { Address } from './address.ts';
import { IntegerString, nullable } from './scalars.ts';

export const TokenHolder = component('TokenHolder', t.type({ address: Address, token_id: nullable(IntegerString), value: IntegerString }));
