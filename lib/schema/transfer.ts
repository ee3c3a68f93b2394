/** The TokenTransfer object and its `total`, as lib/render/transfer.ts renders them. */
import * as t from 'io-ts';
import { component } from '../openapi/jsonSchema.ts';
import { Address } from './address.ts';
import { TokenInstance } from './instance.ts';
import { Integer, IntegerString, Timestamp, TokenTypeCodec, nullable, TransactionHashCodec, BlockHashCodec } from './scalars.ts';
import { Token } from './token.ts';

export const TotalERC721 = component('TotalERC721', t.type({ token_id: nullable(IntegerString), token_instance: nullable(TokenInstance) }));

/** ERC-1155, and ERC-404 with a token id. */
export const TotalERC1155 = component(
  'TotalERC1155',
  t.type({
    decimals: nullable(IntegerString),
    token_id: nullable(IntegerString),
    token_instance: nullable(TokenInstance),
    value: nullable(IntegerString),
  }),
);

/** ERC-20, ERC-7984 (value always null: confidential), ERC-404 without a token id. */
export const Total = component('Total', t.type({ decimals: nullable(IntegerString), value: nullable(IntegerString) }));

export const TokenTransfer = component(
  'TokenTransfer',
  t.type({
    block_hash: BlockHashCodec,
    block_number: Integer,
    from: Address,
    log_index: Integer,
    method: nullable(t.string),
    timestamp: nullable(Timestamp),
    to: Address,
    token: Token,
    token_type: TokenTypeCodec,
    total: t.union([TotalERC721, TotalERC1155, Total, t.null]),
    transaction_hash: TransactionHashCodec,
    type: t.keyof({ token_burning: null, token_minting: null, token_spawning: null, token_transfer: null }),
  }),
);
