/** The lightweight transaction preview (Blockscout 11.2.7 `Preview` / `PreviewAddress`). */
import * as t from 'io-ts';
import { component } from '../openapi/jsonSchema.ts';
import { AddressHash, Timestamp, nullable } from './scalars.ts';

export const PreviewAddress = component(
  'PreviewAddress',
  t.type({
    hash: AddressHash,
    name: nullable(t.string),
    /** no ENS service: always null (Blockscout without BENS answers null too) */
    ens_domain_name: t.null,
    /** no metadata service: always null (Blockscout without it answers null too) */
    metadata: t.null,
  }),
);

export const Preview = component(
  'Preview',
  t.type({
    status: t.union([t.literal('ok'), t.literal('error'), t.null]),
    timestamp: nullable(Timestamp),
    method: nullable(t.string),
    from: nullable(PreviewAddress),
    to: nullable(PreviewAddress),
  }),
);
