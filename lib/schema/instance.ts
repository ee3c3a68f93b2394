/**
 * The TokenInstance (NFT instance) object, as lib/render/instance.ts renders it, and the
 * shapes of its list items (with the holding's `token_type` and `value`, without the embedded
 * token in the multichain form's lists).
 */
import * as t from 'io-ts';
import { component } from '../openapi/jsonSchema.ts';
import { Address } from './address.ts';
import { AnyObject, IntegerString, TokenTypeCodec, nullable } from './scalars.ts';
import { Token } from './token.ts';

const instanceProps = {
  animation_url: nullable(t.string),
  external_app_url: nullable(t.string),
  id: IntegerString,
  image_url: nullable(t.string),
  is_unique: nullable(t.boolean),
  media_type: t.null,
  media_url: nullable(t.string),
  metadata: nullable(AnyObject),
  owner: nullable(Address),
  thumbnails: t.null,
};

export const TokenInstance = component('TokenInstance', t.type({ ...instanceProps, token: nullable(Token) }));

const holding = { token_type: TokenTypeCodec, value: IntegerString };

/** `/tokens/{h}/instances` items: with `holder_address_hash`, also the holder's type and value. */
export const TokenInstanceListItem = component(
  'TokenInstanceListItem',
  t.intersection([t.type({ ...instanceProps, token: nullable(Token) }), t.partial(holding)]),
);

/** The same in the multichain form (Pro API 0.5.0): no embedded token. */
export const TokenInstanceListItemMultichain = component(
  'TokenInstanceListItemMultichain',
  t.intersection([t.type(instanceProps), t.partial(holding)]),
);

/** An instance held, inside an NFT collection (`token` null, with the holding). */
export const HeldTokenInstance = component('HeldTokenInstance', t.type({ ...instanceProps, token: t.null, ...holding }));

/** `/addresses/{h}/nft` items: an instance the address holds, its token, and the holding. */
export const AddressNftItem = component('AddressNftItem', t.type({ ...instanceProps, token: nullable(Token), ...holding }));
