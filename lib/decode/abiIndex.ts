/**
 * One ABI's functions, errors and events by selector (4 bytes) and topic0: what a decoding
 * source answers with. Built once per ABI (the selectors are hashed here, not per row).
 */
import type { Abi, AbiEvent, AbiFunction } from 'abitype';
import { toEventSelector, toFunctionSelector } from 'viem';

/** An ABI's error entry (viem's Abi item of type `error`). */
export type AbiError = Extract<Abi[number], { readonly type: 'error' }>;

export interface AbiIndex {
  /** the functions whose selector (`0x` + 8 lower-case hex) this is */
  functions(selector: string): readonly AbiFunction[];
  errors(selector: string): readonly AbiError[];
  /** the (non-anonymous) events whose topic0 this is */
  events(topic0: string): readonly AbiEvent[];
}

export const EMPTY_INDEX: AbiIndex = { functions: () => [], errors: () => [], events: () => [] };

const isObject = (u: unknown): u is Readonly<Record<string, unknown>> => typeof u === 'object' && u !== null && !Array.isArray(u);
const isParams = (u: unknown): boolean => u === undefined || (Array.isArray(u) && u.every((p) => isObject(p) && typeof p['type'] === 'string'));

function push<T>(map: Map<string, T[]>, key: string, item: T): void {
  const list = map.get(key);
  if (list === undefined) map.set(key, [item]);
  else list.push(item);
}

/** An error's selector is hashed like a function's. */
const errorSelector = (e: AbiError): string => toFunctionSelector({ type: 'function', name: e.name, inputs: e.inputs, outputs: [], stateMutability: 'nonpayable' });

/**
 * The index of an ABI as JSON (a verified contract's, a library user's): entries that are not
 * well-formed functions, errors or events are left out rather than failing the whole ABI.
 */
export function indexAbi(abi: readonly unknown[]): AbiIndex {
  const functions = new Map<string, AbiFunction[]>();
  const errors = new Map<string, AbiError[]>();
  const events = new Map<string, AbiEvent[]>();
  for (const item of abi) {
    if (!isObject(item) || typeof item['name'] !== 'string' || !isParams(item['inputs'])) continue;
    try {
      if (item['type'] === 'function') {
        const f = { outputs: [], stateMutability: 'nonpayable', ...item, inputs: item['inputs'] ?? [] } as unknown as AbiFunction;
        push(functions, toFunctionSelector(f), f);
      } else if (item['type'] === 'error') {
        const e = { ...item, inputs: item['inputs'] ?? [] } as AbiError;
        push(errors, errorSelector(e), e);
      } else if (item['type'] === 'event' && item['anonymous'] !== true) {
        const e = { ...item, inputs: item['inputs'] ?? [] } as AbiEvent;
        push(events, toEventSelector(e), e);
      }
    } catch {
      // a type viem does not know: that entry cannot decode anything
    }
  }
  return {
    functions: (s) => functions.get(s) ?? [],
    errors: (s) => errors.get(s) ?? [],
    events: (t) => events.get(t) ?? [],
  };
}

/** One lookup of several indexes, in order, kept per key (the indexes never change: each is built once from its ABIs). */
function concatenated<T>(lookups: readonly ((key: string) => readonly T[])[]): (key: string) => readonly T[] {
  const kept = new Map<string, readonly T[]>();
  return (key) => {
    let found = kept.get(key);
    if (found === undefined) {
      found = lookups.flatMap((lookup) => lookup(key));
      if (kept.size >= MAX_KEPT) kept.delete(kept.keys().next().value as string);
      kept.set(key, found);
    }
    return found;
  };
}
const MAX_KEPT = 10_000;

/** Several indexes as one, in order (the first one's candidates first). */
export function concatIndexes(indexes: readonly AbiIndex[]): AbiIndex {
  if (indexes.length === 1) return indexes[0] as AbiIndex;
  return {
    functions: concatenated(indexes.map((i) => (s: string) => i.functions(s))),
    errors: concatenated(indexes.map((i) => (s: string) => i.errors(s))),
    events: concatenated(indexes.map((i) => (t: string) => i.events(t))),
  };
}

/** Indexes of JSON ABIs, kept by a key that names the ABI's content (a verified contract's code hash and id). */
const byKey = new Map<string, AbiIndex>();
const MAX_KEYS = 5_000;

export function indexAbiKeyed(key: string, abi: readonly unknown[]): AbiIndex {
  let index = byKey.get(key);
  if (index === undefined) {
    index = indexAbi(abi);
    if (byKey.size >= MAX_KEYS) byKey.delete(byKey.keys().next().value as string);
    byKey.set(key, index);
  }
  return index;
}
