/**
 * A test-only write endpoint (the registry has none yet): `POST /api/v2/test/notes/{name}`, a
 * body decoded by its codec (a greeting, an optional count, an optional file), capped at 1 KiB.
 * It answers what it decoded, so a test sees what lib handed the handler.
 */
import * as E from 'fp-ts/lib/Either.js';
import * as t from 'io-ts';
import { defineEndpoint, erased } from '../../lib/index.ts';
import type { AnyEndpoint, UploadedFile } from '../../lib/index.ts';
import { anyString } from '../../lib/params/codecs.ts';

export const NOTE_MAX_BYTES = 1024;

const File = new t.Type<UploadedFile, UploadedFile, unknown>(
  'UploadedFile',
  (u): u is UploadedFile => typeof u === 'object' && u !== null && (u as UploadedFile).content instanceof Uint8Array,
  (u, c) => (typeof u === 'object' && u !== null && (u as UploadedFile).content instanceof Uint8Array ? t.success(u as UploadedFile) : t.failure(u, c, 'expected a file')),
  t.identity,
);
/** a count sent as a JSON number or as form text */
const Count = t.union([t.number, t.string.pipe(new t.Type<number, string, string>('Count', t.number.is, (s, c) => (/^\d+$/.test(s) ? t.success(Number(s)) : t.failure(s, c, 'expected digits')), String))]);

export const NoteBody = t.intersection([t.type({ greeting: t.string }), t.partial({ count: Count, attachment: File })]);

export const postNote: AnyEndpoint = erased(
  defineEndpoint({
    method: 'POST',
    route: '/test/notes/{name}',
    summary: 'test only: a note, echoed',
    path: { name: anyString },
    query: {},
    body: { codec: NoteBody, maxBytes: NOTE_MAX_BYTES },
    response: t.unknown,
    handler: (deps) => (input) => async () =>
      E.right({
        chain: deps.chainId,
        store: deps.chain.store === deps.ds,
        name: input.path.name,
        greeting: input.body.greeting,
        count: input.body.count ?? null,
        attachment:
          input.body.attachment === undefined
            ? null
            : {
                filename: input.body.attachment.filename,
                contentType: input.body.attachment.contentType,
                text: new TextDecoder().decode(input.body.attachment.content),
              },
      }),
  }),
);

export const TEST_ENDPOINTS = { postNote } as const;
