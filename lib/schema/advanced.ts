/** The `/advanced-filters` body and `/advanced-filters/methods` items, as lib/render/advanced.ts renders them. */
import * as t from 'io-ts';
import { component } from '../openapi/jsonSchema.ts';
import { Address } from './address.ts';
import { NextPageParams } from './page.ts';
import { Integer, IntegerString, Timestamp, TokenTypeCodec, nullable, TransactionHashCodec } from './scalars.ts';
import { Token } from './token.ts';
import { Total, TotalERC1155, TotalERC721 } from './transfer.ts';

export const AdvancedFilterItem = component(
  'AdvancedFilterItem',
  t.type({
    hash: TransactionHashCodec,
    type: t.union([t.keyof({ coin_transfer: null, contract_interaction: null, contract_creation: null }), TokenTypeCodec]),
    status: t.string,
    method: nullable(t.string),
    from: Address,
    to: nullable(Address),
    created_contract: nullable(Address),
    value: nullable(IntegerString),
    total: t.union([TotalERC721, TotalERC1155, Total, t.null]),
    token: nullable(Token),
    timestamp: Timestamp,
    block_number: Integer,
    transaction_index: Integer,
    internal_transaction_index: nullable(Integer),
    token_transfer_index: nullable(Integer),
    token_transfer_batch_index: nullable(Integer),
    fee: IntegerString,
  }),
);

export const AdvancedFilterSearchParams = component(
  'AdvancedFilterSearchParams',
  t.type({ methods: t.record(t.string, t.string), tokens: t.record(t.string, Token) }),
);

export const AdvancedFilterPage = t.type({
  items: t.array(AdvancedFilterItem),
  search_params: AdvancedFilterSearchParams,
  next_page_params: NextPageParams,
});

export const AdvancedFilterMethod = component('AdvancedFilterMethod', t.type({ method_id: t.string, name: t.string }));
