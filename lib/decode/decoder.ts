/**
 * Decoding transaction input, event logs and revert data with viem (decodeFunctionData,
 * decodeEventLog, decodeErrorResult), trying ABIs in Blockscout's order (blockscout-contracts
 * §5): the verified ABI of the called (or emitting) address, its proxies' implementations at the
 * block, every verified ABI by selector, then the known signatures (library users' ABIs, the
 * standard token methods, the generated signature table). The first candidate that decodes wins.
 */
import type { AbiEvent, AbiFunction } from 'viem';
import { decodeErrorResult, decodeEventLog, decodeFunctionData } from 'viem';
import type { Hex } from '../domain/records.ts';
import type { JsonValue } from '../json.ts';
import type { AbiError, AbiIndex } from './abiIndex.ts';
import { callSignature, paramName, renderParamValue } from './values.ts';

/** The ABIs to try for one address, in order: its own (or its twin's) and its implementations'. */
export interface DecodeTiers {
  /** the address's full ABI (own, then implementations'); empty when none is known */
  readonly own: readonly AbiIndex[];
  /** ABIs that fit this address's kind before any other's (an ERC-721 token's standard methods) */
  readonly kind: AbiIndex | null;
  /** every verified ABI by selector */
  readonly verified: AbiIndex | null;
  /** the known signatures: library users' ABIs, the standard methods, the signature table */
  readonly known: AbiIndex;
}

/** A decoded call input or revert (the API's DecodedInput). */
export type DecodedCall = {
  readonly method_call: string;
  readonly method_id: string;
  readonly parameters: readonly { readonly name: string; readonly type: string; readonly value: JsonValue }[];
};
/** A decoded event log (the API's DecodedLog). */
export type DecodedEvent = {
  readonly method_call: string;
  readonly method_id: string;
  readonly parameters: readonly { readonly indexed: boolean; readonly name: string; readonly type: string; readonly value: JsonValue }[];
};

const tiersOf = (t: DecodeTiers): readonly AbiIndex[] => [...t.own, ...(t.kind === null ? [] : [t.kind]), ...(t.verified === null ? [] : [t.verified]), t.known];

/** Per ABI item, what it decoded each input to (items are shared objects: indexes are built once per ABI). */
const memo = new WeakMap<object, Map<string, DecodedCall | DecodedEvent | null>>();
const MAX_PER_ITEM = 2_000;

function memoized<D extends DecodedCall | DecodedEvent>(item: object, key: string, run: () => D | null): D | null {
  let m = memo.get(item);
  if (m === undefined) {
    m = new Map();
    memo.set(item, m);
  }
  const hit = m.get(key);
  // the item decides the kind: a function's or an error's entries are calls, an event's events
  if (hit !== undefined || m.has(key)) return hit as D | null;
  const value = run();
  if (m.size >= MAX_PER_ITEM) m.delete(m.keys().next().value as string);
  m.set(key, value);
  return value;
}

function tryFunction(f: AbiFunction, input: Hex): DecodedCall | null {
  return memoized(f, input, () => {
    try {
      const { args } = decodeFunctionData({ abi: [f], data: input });
      const values = (args ?? []) as readonly unknown[];
      return {
        method_call: callSignature(f.name, f.inputs, false),
        method_id: input.slice(2, 10).toLowerCase(),
        parameters: f.inputs.map((p, i) => ({ name: paramName(p, i), type: p.type, value: renderParamValue(p, values[i]) })),
      };
    } catch {
      return null;
    }
  });
}

function tryError(e: AbiError, data: Hex): DecodedCall | null {
  return memoized(e, data, () => {
    try {
      const { args } = decodeErrorResult({ abi: [e], data });
      const values = (args ?? []) as readonly unknown[];
      return {
        method_call: callSignature(e.name, e.inputs, false),
        method_id: data.slice(2, 10).toLowerCase(),
        parameters: e.inputs.map((p, i) => ({ name: paramName(p, i), type: p.type, value: renderParamValue(p, values[i]) })),
      };
    } catch {
      return null;
    }
  });
}

function tryEvent(e: AbiEvent, topics: readonly Hex[], data: Hex): DecodedEvent | null {
  return memoized(e, `${topics.join(',')}|${data}`, () => {
    try {
      const { args } = decodeEventLog({ abi: [e], topics: topics as [Hex, ...Hex[]], data, strict: true });
      const named = args !== null && typeof args === 'object' && !Array.isArray(args) ? (args as Readonly<Record<string, unknown>>) : null;
      const positional = Array.isArray(args) ? (args as readonly unknown[]) : [];
      return {
        method_call: callSignature(e.name, e.inputs, true),
        method_id: (topics[0] ?? '0x').slice(2, 10).toLowerCase(),
        parameters: e.inputs.map((p, i) => ({
          indexed: p.indexed ?? false,
          name: paramName(p, i),
          type: p.type,
          value: renderParamValue(p, named !== null && p.name !== undefined && p.name !== '' ? named[p.name] : positional[i]),
        })),
      };
    } catch {
      return null;
    }
  });
}

/** A call's input decoded (DecodedInput), null when no ABI decodes it. */
export function decodeCall(tiers: DecodeTiers, input: Hex): DecodedCall | null {
  if (input.length < 10) return null;
  const selector = input.slice(0, 10).toLowerCase();
  for (const tier of tiersOf(tiers)) {
    for (const f of tier.functions(selector)) {
      const d = tryFunction(f, input);
      if (d !== null) return d;
    }
  }
  return null;
}

/** The name of the method a selector calls, from the first ABI that has one; null when none does. */
export function methodNameOf(tiers: DecodeTiers, selector: Hex): string | null {
  for (const tier of tiersOf(tiers)) {
    const f = tier.functions(selector.toLowerCase())[0];
    if (f !== undefined) return f.name;
  }
  return null;
}

/** An event log decoded (DecodedLog), null without topic0 or when no ABI decodes it. */
export function decodeEvent(tiers: DecodeTiers, topics: readonly Hex[], data: Hex): DecodedEvent | null {
  const topic0 = topics[0];
  if (topic0 === undefined) return null;
  for (const tier of tiersOf(tiers)) {
    for (const e of tier.events(topic0.toLowerCase())) {
      const d = tryEvent(e, topics, data);
      if (d !== null) return d;
    }
  }
  return null;
}

const PANIC_REASONS: Readonly<Record<string, string>> = {
  '0': 'generic panic',
  '1': 'assert(false)',
  '17': 'arithmetic underflow or overflow',
  '18': 'division or modulo by zero',
  '33': 'enum overflow',
  '34': 'invalid encoded storage byte array accessed',
  '49': 'out-of-bounds array access; popping on an empty array',
  '50': 'out-of-bounds access of an array or bytesN',
  '65': 'out of memory',
  '81': 'uninitialized function',
};

const BUILTIN_ERRORS: readonly AbiError[] = [
  { type: 'error', name: 'Error', inputs: [{ type: 'string', name: 'reason' }] },
  { type: 'error', name: 'Panic', inputs: [{ type: 'uint256', name: 'code' }] },
];

/**
 * Revert data decoded: `Error(string)`, `Panic(uint256)` (its value with the code's meaning,
 * `17 (arithmetic underflow or overflow)`), else a custom error by the ABIs in order; null when
 * nothing decodes it.
 */
export function decodeRevertData(tiers: DecodeTiers, data: Hex): DecodedCall | null {
  if (data.length < 10) return null;
  const selector = data.slice(0, 10).toLowerCase();
  for (const e of BUILTIN_ERRORS) {
    const d = selector === (e.name === 'Error' ? '0x08c379a0' : '0x4e487b71') ? tryError(e, data) : null;
    if (d === null) continue;
    if (e.name !== 'Panic') return d;
    const [param] = d.parameters;
    const code = String(param?.value);
    const text = PANIC_REASONS[code];
    return { ...d, parameters: [{ name: 'code', type: 'uint256', value: text === undefined ? code : `${code} (${text})` }] };
  }
  for (const tier of tiersOf(tiers)) {
    for (const e of tier.errors(selector)) {
      const d = tryError(e, data);
      if (d !== null) return d;
    }
  }
  return null;
}
