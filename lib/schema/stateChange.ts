/** The StateChange object, as lib/endpoints/transactionStateChanges.ts renders it. */
import * as t from 'io-ts';
import { component } from '../openapi/jsonSchema.ts';
import { Address } from './address.ts';
import { IntegerString, nullable } from './scalars.ts';
import { Token } from './token.ts';
import { Total, TotalERC1155, TotalERC721 } from './transfer.ts';

export const StateChange = component(
  'StateChange',
  t.type({
    address: Address,
    balance_after: nullable(IntegerString),
    balance_before: nullable(IntegerString),
    /** coin and fungible tokens: the difference; ERC-721: the transfers in and out */
    change: t.union([
      IntegerString,
      t.array(t.type({ direction: t.keyof({ from: null, to: null }), total: t.union([TotalERC721, TotalERC1155, Total, t.null]) })),
    ]),
    is_miner: t.boolean,
    token: nullable(Token),
    token_id: nullable(IntegerString),
    type: t.keyof({ coin: null, token: null }),
  }),
);
