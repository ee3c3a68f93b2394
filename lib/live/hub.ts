/**
 * One chain's live hub: it follows the chain's change feed while anyone is subscribed, turns
 * each change into the events of the topics subscribed to (computed once for all subscribers),
 * and hands them out in version order. The server-sent events answer and
 * `explorer.subscribe` share it (and the socket will).
 */
import type { ContractFeed } from '../contracts/store.ts';
import type { ChangeFeed } from '../feed/change.ts';
import type { JsonObject } from '../json.ts';
import type { DataSource } from '../ports.ts';
import type { RenderOptions } from '../render/context.ts';
import type { BlockBroadcast, LiveEvent } from './events.ts';
import { eventsOfChange } from './events.ts';
import { verificationResultOfChange } from './verification.ts';

export type LiveHandler = (event: LiveEvent) => void;

export interface LiveHub {
  /** events of `topic` (an exact string) from now on; returns the unsubscribe function */
  subscribe(topic: string, handler: LiveHandler): () => void;
  /** the events of these topics after data version `version`, oldest first; null: too old to replay */
  replay(version: number, topics: ReadonlySet<string>): Promise<readonly LiveEvent[] | null>;
  /**
   * Hand out an event that no store write carries (a verification job's result), after the
   * changes already queued, to this hub's subscribers of `topic` only. It is not replayed: its
   * version is the last change's the hub saw (0: none yet).
   */
  publish(topic: string, event: string, payload: JsonObject): void;
}

export function createLiveHub(
  ds: DataSource,
  feed: ChangeFeed,
  render: RenderOptions,
  onError: (error: unknown) => void = () => undefined,
  options: {
    readonly blockBroadcast?: BlockBroadcast;
    /** the chain's contract store's feed: each job settled, by any process sharing it, is a `verification_result` */
    readonly contracts?: ContractFeed;
  } = {},
): LiveHub {
  const blockBroadcast = options.blockBroadcast ?? 'block';
  const handlers = new Map<string, Set<LiveHandler>>();
  let stopFeed: (() => void) | null = null;
  let stopContracts: (() => void) | null = null;
  // changes are turned into events one after the other: events go out in version order
  let queue: Promise<void> = Promise.resolve();
  const wanted = (topic: string): boolean => handlers.has(topic);
  let lastVersion = 0;
  const hand = (event: LiveEvent): void => {
    for (const h of [...(handlers.get(event.topic) ?? [])]) {
      try {
        h(event);
      } catch (error) {
        onError(error);
      }
    }
  };

  const onChange = (change: Parameters<Parameters<ChangeFeed['subscribe']>[0]>[0]): void => {
    queue = queue.then(async () => {
      lastVersion = Math.max(lastVersion, change.version);
      try {
        for (const event of await eventsOfChange(ds, change, wanted, render, { subscribed: handlers.keys(), blockBroadcast })) hand(event);
      } catch (error) {
        onError(error);
      }
    });
  };

  const publish = (topic: string, event: string, payload: JsonObject): void => {
    if (!handlers.has(topic)) return;
    queue = queue.then(() => hand({ topic, event, payload, version: lastVersion }));
  };

  return {
    subscribe(topic, handler) {
      let set = handlers.get(topic);
      if (set === undefined) handlers.set(topic, (set = new Set()));
      set.add(handler);
      if (stopFeed === null) stopFeed = feed.subscribe(onChange);
      if (stopContracts === null && options.contracts !== undefined) {
        stopContracts = options.contracts.subscribe((change) => {
          const result = verificationResultOfChange(change);
          if (result !== null) publish(result.topic, result.event, result.payload);
        });
      }
      return () => {
        const s = handlers.get(topic);
        if (s === undefined || !s.delete(handler)) return;
        if (s.size === 0) handlers.delete(topic);
        if (handlers.size === 0 && stopFeed !== null) {
          stopFeed();
          stopFeed = null;
          stopContracts?.();
          stopContracts = null;
        }
      };
    },
    publish,
    async replay(version, topics) {
      const changes = await feed.since(version);
      if (changes === null) return null;
      const out: LiveEvent[] = [];
      for (const change of changes) out.push(...(await eventsOfChange(ds, change, (t) => topics.has(t), render, { subscribed: topics, blockBroadcast })).filter((e) => topics.has(e.topic)));
      return out;
    },
  };
}
