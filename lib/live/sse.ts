/**
 * Server-sent events of live topics: the text/event-stream body, event by event.
 * - `id:` is the data version of the change: a client that reconnects with `Last-Event-ID`
 *   gets what it missed (replayed from the feed), then the live events, each once;
 * - `event:` is Blockscout's event name; `data:` `{"topic","event","payload"}`;
 * - a comment every `heartbeatMs` keeps proxies from closing an idle connection;
 * - a client that reads too slowly (more than `maxQueued` messages waiting) is ended;
 * - when the client goes (the host ends the iteration) every subscription is dropped at once.
 */
import type { LiveEvent } from './events.ts';
import type { LiveHub } from './hub.ts';

export interface SseOptions {
  readonly heartbeatMs: number;
  readonly maxQueued: number;
}

export const formatEvent = (e: LiveEvent): string => `id: ${e.version}\nevent: ${e.event}\ndata: ${JSON.stringify({ topic: e.topic, event: e.event, payload: e.payload })}\n\n`;

export function sseStream(hub: LiveHub, topics: readonly string[], lastEventId: number | undefined, options: SseOptions): AsyncIterable<string> {
  return {
    [Symbol.asyncIterator](): AsyncIterator<string> {
      const queue: string[] = [': live\nretry: 1000\n\n'];
      let wake: (() => void) | null = null;
      let done = false;
      let replaying = lastEventId !== undefined;
      const held: LiveEvent[] = [];
      let after = lastEventId ?? -1;

      const notify = (): void => {
        const w = wake;
        wake = null;
        w?.();
      };
      const enqueue = (text: string): void => {
        if (done) return;
        if (queue.length >= options.maxQueued) {
          // too slow: end it rather than hold an ever longer queue
          finish();
          return;
        }
        queue.push(text);
        notify();
      };
      const send = (e: LiveEvent): void => {
        if (replaying) held.push(e);
        else if (e.version > after) enqueue(formatEvent(e));
      };
      const unsubscribes = [...new Set(topics)].map((t) => hub.subscribe(t, send));
      const heartbeat = setInterval(() => enqueue(': heartbeat\n\n'), options.heartbeatMs);
      heartbeat.unref?.();
      const finish = (): void => {
        if (done) return;
        done = true;
        clearInterval(heartbeat);
        for (const u of unsubscribes) u();
        notify();
      };

      if (lastEventId !== undefined) {
        void hub
          .replay(lastEventId, new Set(topics))
          .then(
            (events) => {
              for (const e of events ?? []) {
                enqueue(formatEvent(e));
                after = Math.max(after, e.version);
              }
            },
            () => undefined,
          )
          .finally(() => {
            replaying = false;
            for (const e of held.splice(0)) send(e);
          });
      }

      return {
        async next(): Promise<IteratorResult<string>> {
          while (queue.length === 0 && !done) await new Promise<void>((resolve) => (wake = resolve));
          const text = queue.shift();
          if (text !== undefined) return { value: text, done: false };
          return { value: undefined, done: true };
        },
        async return(): Promise<IteratorResult<string>> {
          finish();
          queue.length = 0;
          return { value: undefined, done: true };
        },
      };
    },
  };
}
