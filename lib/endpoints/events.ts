/**
 * GET /events?topics=a,b — server-sent events of Blockscout's live topics (lib/live/): the
 * payloads of its socket, for clients that want plain HTTP. `Last-Event-ID` (the host passes
 * the header as `last_event_id`) resumes after that data version. A topic that cannot be
 * joined is 422 with Blockscout's join reason; more topics than the cap, 422.
 */
import * as E from 'fp-ts/lib/Either.js';
import * as t from 'io-ts';
import { anyString, integer } from '../params/codecs.ts';
import { parseTopic } from '../live/topics.ts';
import { sseStream } from '../live/sse.ts';
import { StreamedBody } from '../streamed.ts';
import { defineEndpoint } from './endpoint.ts';

/** The 200 body: an event stream (its own codec: a media type set on io-ts's shared `t.string` would mark every string). */
const EventStream = Object.assign(new t.Type<string>('EventStream', t.string.is, t.string.validate, t.identity), { mediaType: 'text/event-stream' as const });

export const events = defineEndpoint({
  route: '/events',
  summary: 'Server-sent events of live topics (blocks:new_block, transactions:new_transaction, addresses:{hash}, tokens:{hash})',
  path: {},
  query: { topics: anyString, last_event_id: integer({ min: 0 }) },
  requiredQuery: ['topics'],
  response: EventStream,
  produces: 'text/event-stream',
  // a live stream, not a Blockscout REST answer: left out of the document and the explorer endpoints' table
  meta: true,
  unprocessableMessage: 'a topic that cannot be joined, too many topics, or a chain without a change feed',
  handler:
    ({ live }) =>
    ({ query }) =>
    async () => {
      if (live === undefined) return E.left({ kind: 'InvalidParams', errors: [{ name: 'topics', detail: 'This chain has no change feed: live updates are off' }] });
      const topics = [...new Set((query.topics ?? '').split(',').map((s) => s.trim()).filter((s) => s.length > 0))];
      if (topics.length === 0) return E.left({ kind: 'InvalidParams', errors: [{ name: 'topics', detail: 'at least one topic' }] });
      if (topics.length > live.maxTopics) return E.left({ kind: 'InvalidParams', errors: [{ name: 'topics', detail: `at most ${live.maxTopics} topics per connection` }] });
      for (const topic of topics) {
        const parsed = parseTopic(topic);
        if (typeof parsed === 'string') return E.left({ kind: 'InvalidParams', errors: [{ name: 'topics', detail: `${topic}: ${parsed}` }] });
      }
      const chunks = sseStream(live.hub, topics, query.last_event_id, { heartbeatMs: live.heartbeatMs, maxQueued: live.maxQueued });
      return E.right(new StreamedBody('text/event-stream; charset=utf-8', null, chunks, { 'cache-control': 'no-cache', 'x-accel-buffering': 'no' }));
    },
});
