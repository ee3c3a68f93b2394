/** The list envelope and the error bodies (lib/paging/page.ts, lib/errors.ts). */
import * as t from 'io-ts';
import { component, describedString, withSchema } from '../openapi/jsonSchema.ts';
import { BlockHashCodec, Integer } from './scalars.ts';

const isParams = (u: unknown): u is object | null => u === null || (typeof u === 'object' && !Array.isArray(u));

/** The keys to send back as query parameters for the next page; null on the last page. */
export const NextPageParams = component(
  'NextPageParams',
  withSchema(new t.Type<object | null>('NextPageParams', isParams, (u, c) => (isParams(u) ? t.success(u) : t.failure(u, c)), t.identity), {
    type: ['object', 'null'],
    description: 'send these keys back as query parameters (with the same filters) for the next page; null on the last page',
  }),
);

export const page = <C extends t.Mixed>(item: C) => t.type({ items: t.readonlyArray(item), next_page_params: NextPageParams });

/** The Pro API's internal-transaction lists add a fetch status (1: complete). */
export const pageWithMeta = <C extends t.Mixed>(item: C) =>
  t.type({ items: t.readonlyArray(item), next_page_params: NextPageParams, meta: t.type({ message: t.null, status: Integer }) });

export const InvalidParamsError = component(
  'InvalidParamsError',
  t.type({
    errors: t.array(t.type({ title: t.string, source: t.type({ pointer: t.string }), detail: t.string })),
  }),
);

/**
 * 404 and every other error; a block that lost consensus also names its hash; the
 * account-abstraction paths answer in the body of Blockscout's user-ops-indexer, with its gRPC
 * `code` (5: not found, 3: a bad page token).
 */
export const MessageError = component(
  'MessageError',
  t.intersection([
    t.type({ message: describedString('ErrorMessage', { type: 'string', description: 'what went wrong, in words (e.g. `Not found`, `Too many requests`)' }) }),
    t.partial({ hash: BlockHashCodec, code: Integer }),
  ]),
);
