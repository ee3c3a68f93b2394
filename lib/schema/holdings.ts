/** What an address holds: token balances and NFT collections. */
import * as t from 'io-ts';
import { component } from '../openapi/jsonSchema.ts';
import { HeldTokenInstance, TokenInstance } from './instance.ts';
import { IntegerString, nullable } from './scalars.ts';
import { Token } from './token.ts';

export const TokenBalance = component(
  'TokenBalance',
  t.type({ token: Token, token_id: nullable(IntegerString), token_instance: nullable(TokenInstance), value: IntegerString }),
);

export const NftCollection = component(
  'NftCollection',
  t.type({ amount: IntegerString, token: Token, token_instances: t.array(HeldTokenInstance) }),
);
