/**
 * Blockscout's socket protocol (Phoenix channels as Phoenix 1.6 speaks them; reference
 * shared/reference/blockscout-live.md §1), pure: the socket's paths, frames read and written by
 * the serializer the client asked for (`vsn=2.0.0`: arrays `[join_ref, ref, topic, event,
 * payload]`; no `vsn`, or 1.x: objects `{topic, event, payload, ref}`), and one connection's
 * channels as a state machine — frames in, frames out. The host (host/socket.ts) owns the
 * transport, the timers and the caps across connections; joins are judged and subscribed
 * through the `ChannelPort` it gives.
 *
 * As Phoenix answers:
 * - `heartbeat` on topic `phoenix`: `phx_reply` ok `{}` (join_ref null);
 * - `phx_join`: a topic no channel matches → error `unmatched topic` (join_ref null); a topic the
 *   channel refuses → error with its reason (`Invalid address hash`, `Restricted access`);
 *   else ok `{}`; joining a joined topic closes the old channel first (`phx_close` with its
 *   join_ref), then joins again;
 * - `phx_leave`: ok `{}`, then `phx_close` of the channel (a topic not joined: ok only);
 * - any other event: on a joined topic the channel has no handler, so it fails (`phx_error`,
 *   the channel is gone); on a topic not joined, error `unmatched topic`;
 * - broadcasts: `[null, null, topic, event, payload]`.
 */
import type { JsonValue } from '../json.ts';
import { toJson } from '../json.ts';
import type { LiveEvent } from './events.ts';
import { parseTopic } from './topics.ts';

/** Phoenix's JSON serializers: V1 objects, V2 arrays. */
export type Serializer = 'v1' | 'v2';

/**
 * The serializer of the `vsn` query parameter, as Phoenix negotiates it: absent is 1.0.0;
 * `~> 1.0` is V1, `~> 2.0.0` is V2; null: a version Phoenix does not speak.
 */
export function serializerOf(vsn: string | undefined): Serializer | null {
  if (vsn === undefined) return 'v1';
  if (/^1\.\d+\.\d+$/.test(vsn)) return 'v1';
  if (/^2\.0\.\d+$/.test(vsn)) return 'v2';
  return null;
}

/** The socket's path below the instance (`/socket/v2/websocket`) or a chain (`/{chain_id}/socket/v2/websocket`); null: not it. */
export function parseSocketPath(path: string): { readonly chainId: string | undefined } | null {
  const m = /^(?:\/([^/]+))?\/socket\/v2\/websocket\/?$/i.exec(path);
  if (m === null) return null;
  const segment = m[1];
  if (segment === undefined) return { chainId: undefined };
  try {
    return { chainId: decodeURIComponent(segment) };
  } catch {
    return null;
  }
}

/** One Phoenix message. `joinRef` is null when the frame has none (V1 never does). */
export interface PhoenixMessage {
  readonly joinRef: JsonValue;
  readonly ref: JsonValue;
  readonly topic: string;
  readonly event: string;
  readonly payload: JsonValue;
}

/** A frame that is not a Phoenix message: why. */
export interface InvalidFrame {
  readonly invalid: string;
}

/** The message of a text frame; Phoenix's serializers take extra array items and object keys silently. */
export function decodeFrame(serializer: Serializer, text: string): PhoenixMessage | InvalidFrame {
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch {
    return { invalid: 'not JSON' };
  }
  if (serializer === 'v2') {
    if (!Array.isArray(value) || value.length < 5) return { invalid: 'expected [join_ref, ref, topic, event, payload]' };
    const [joinRef, ref, topic, event, payload] = value as JsonValue[];
    if (typeof topic !== 'string' || typeof event !== 'string') return { invalid: 'topic and event must be strings' };
    return { joinRef: joinRef ?? null, ref: ref ?? null, topic, event, payload: payload ?? null };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { invalid: 'expected {topic, event, payload, ref}' };
  const o = value as Record<string, JsonValue | undefined>;
  for (const key of ['topic', 'event', 'payload', 'ref']) if (!(key in o)) return { invalid: `missing key "${key}"` };
  const { topic, event } = o;
  if (typeof topic !== 'string' || typeof event !== 'string') return { invalid: 'topic and event must be strings' };
  return { joinRef: o['join_ref'] ?? null, ref: o['ref'] ?? null, topic, event, payload: o['payload'] ?? null };
}

/** A message's text frame (V1 carries no join_ref, as Phoenix's V1 serializer writes it). */
export function encodeFrame(serializer: Serializer, m: PhoenixMessage): string {
  return serializer === 'v2' ? toJson([m.joinRef, m.ref, m.topic, m.event, m.payload]) : toJson({ topic: m.topic, event: m.event, payload: m.payload, ref: m.ref });
}

// one text per event and serializer, however many connections follow its topic
const broadcasts: Readonly<Record<Serializer, WeakMap<LiveEvent, string>>> = { v1: new WeakMap(), v2: new WeakMap() };

/** A live event's frame (a broadcast: no refs), written once per event and serializer. */
export function broadcastFrame(serializer: Serializer, event: LiveEvent): string {
  const cache = broadcasts[serializer];
  let text = cache.get(event);
  if (text === undefined) {
    text = encodeFrame(serializer, { joinRef: null, ref: null, topic: event.topic, event: event.event, payload: event.payload });
    cache.set(event, text);
  }
  return text;
}

/** What a connection's channels need from the host. */
export interface ChannelPort {
  /** send a text frame to the client */
  send(text: string): void;
  /**
   * Judge the join of a topic Blockscout's channels accept (restrictions, limits, caps across
   * connections) and subscribe `deliver` to its events: the unsubscribe function, or the
   * reason of a refusal.
   */
  join(topic: string, deliver: (event: LiveEvent) => void): Promise<(() => void) | { readonly reason: string }>;
  /** told the outcome of every join (for the metrics) */
  joined?(ok: boolean): void;
}

export interface PhoenixConnectionOptions {
  readonly serializer: Serializer;
  /** most topics joined at once on the connection; a join beyond is refused */
  readonly maxTopics: number;
}

export interface PhoenixConnection {
  /**
   * A text frame from the client, handled after those before it (its replies sent through the
   * port). `invalid`: the frame is not a Phoenix message (the host closes the connection).
   */
  receive(text: string): Promise<InvalidFrame | null>;
  /** frames received and not yet handled */
  readonly pending: number;
  /** topics joined */
  readonly topics: number;
  /** the connection is gone: leave every topic; later frames are ignored */
  end(): void;
}

interface Channel {
  readonly joinRef: JsonValue;
  readonly unsubscribe: () => void;
}

const OK = { status: 'ok', response: {} } as const;
const UNMATCHED = 'unmatched topic';

export function phoenixConnection(options: PhoenixConnectionOptions, port: ChannelPort): PhoenixConnection {
  const { serializer } = options;
  const channels = new Map<string, Channel>();
  let ended = false;
  let pending = 0;
  let queue: Promise<unknown> = Promise.resolve();

  const send = (joinRef: JsonValue, ref: JsonValue, topic: string, event: string, payload: JsonValue): void => {
    if (!ended) port.send(encodeFrame(serializer, { joinRef, ref, topic, event, payload }));
  };
  const reply = (joinRef: JsonValue, ref: JsonValue, topic: string, payload: JsonValue): void => send(joinRef, ref, topic, 'phx_reply', payload);
  const refuse = (joinRef: JsonValue, ref: JsonValue, topic: string, reason: string): void => {
    port.joined?.(false);
    reply(joinRef, ref, topic, { status: 'error', response: { reason } });
  };
  const drop = (topic: string): Channel | undefined => {
    const channel = channels.get(topic);
    if (channel === undefined) return undefined;
    channels.delete(topic);
    channel.unsubscribe();
    return channel;
  };
  const deliver = (event: LiveEvent): void => {
    if (!ended && channels.has(event.topic)) port.send(broadcastFrame(serializer, event));
  };

  async function join(m: PhoenixMessage): Promise<void> {
    const old = drop(m.topic);
    if (old !== undefined) send(old.joinRef, old.joinRef, m.topic, 'phx_close', {});
    const parsed = parseTopic(m.topic);
    if (parsed === UNMATCHED) return refuse(null, m.ref, m.topic, UNMATCHED);
    if (typeof parsed === 'string') return refuse(m.joinRef, m.ref, m.topic, parsed);
    if (channels.size >= options.maxTopics) return refuse(m.joinRef, m.ref, m.topic, `too many topics: at most ${options.maxTopics} per connection`);
    const result = await port.join(m.topic, deliver);
    if (typeof result !== 'function') return refuse(m.joinRef, m.ref, m.topic, result.reason);
    if (ended) return result();
    port.joined?.(true);
    // the reply first, then the channel's events
    reply(m.joinRef, m.ref, m.topic, OK);
    channels.set(m.topic, { joinRef: m.joinRef, unsubscribe: result });
  }

  function leave(m: PhoenixMessage): void {
    const channel = channels.get(m.topic);
    if (channel === undefined) return reply(m.joinRef, m.ref, m.topic, OK);
    // a leave of an older join of the topic raced the server's close of it: nothing to answer
    if (channel.joinRef !== null && toJson(channel.joinRef) !== toJson(m.joinRef)) return;
    drop(m.topic);
    reply(channel.joinRef, m.ref, m.topic, OK);
    send(channel.joinRef, channel.joinRef, m.topic, 'phx_close', {});
  }

  async function handle(m: PhoenixMessage): Promise<void> {
    if (m.topic === 'phoenix' && m.event === 'heartbeat') return reply(null, m.ref, 'phoenix', OK);
    if (m.event === 'phx_join') return join(m);
    if (m.event === 'phx_leave') return leave(m);
    // Blockscout's channels handle nothing else: the channel fails
    const failed = drop(m.topic);
    if (failed !== undefined) return send(failed.joinRef, failed.joinRef, m.topic, 'phx_error', {});
    reply(null, m.ref, m.topic, { status: 'error', response: { reason: UNMATCHED } });
  }

  return {
    receive(text) {
      if (ended) return Promise.resolve(null);
      const m = decodeFrame(serializer, text);
      if ('invalid' in m) return Promise.resolve(m);
      pending++;
      const done = queue.then(() => (ended ? undefined : handle(m))).finally(() => pending--);
      queue = done.catch(() => undefined);
      return done.then(() => null);
    },
    get pending() {
      return pending;
    },
    get topics() {
      return channels.size;
    },
    end() {
      if (ended) return;
      ended = true;
      for (const topic of [...channels.keys()]) drop(topic);
    },
  };
}
