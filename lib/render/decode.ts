/**
 * Decoding with the ABIs of the standard token methods and events (viem's pure utilities):
 * transaction input, event logs, revert reasons, and method names for `method` fields.
 */
import type { AbiEvent, AbiFunction, AbiParameter } from 'viem';
import { decodeAbiParameters, parseAbi, toEventSelector, toFunctionSelector } from 'viem';
import type { Hex } from '../domain/records.ts';
import type { JsonObject, JsonValue } from '../json.ts';
import { checksum } from './format.ts';
import { memoize } from './memo.ts';

const FUNCTIONS = parseAbi([
  'function transfer(address to, uint256 value) returns (bool)',
  'function transferFrom(address from, address to, uint256 value) returns (bool)',
  'function approve(address spender, uint256 value) returns (bool)',
  'function safeTransferFrom(address from, address to, uint256 tokenId)',
  'function safeTransferFrom(address from, address to, uint256 tokenId, bytes data)',
  'function safeTransferFrom(address from, address to, uint256 id, uint256 value, bytes data)',
  'function safeBatchTransferFrom(address from, address to, uint256[] ids, uint256[] values, bytes data)',
  'function setApprovalForAll(address operator, bool approved)',
  'function mint(address to, uint256 amount)',
  'function burn(uint256 amount)',
  'function multicall(uint256 deadline, bytes[] data)',
  'function commit(bytes32 commitment)',
  'function deposit()',
  'function withdraw(uint256 amount)',
]) as readonly AbiFunction[];

const EVENTS = parseAbi([
  'event Transfer(address indexed from, address indexed to, uint256 value)',
  'event Transfer(address indexed from, address indexed to, uint256 indexed tokenId)',
  'event Approval(address indexed owner, address indexed spender, uint256 value)',
  'event Approval(address indexed owner, address indexed approved, uint256 indexed tokenId)',
  'event ApprovalForAll(address indexed owner, address indexed operator, bool approved)',
  'event TransferSingle(address indexed operator, address indexed from, address indexed to, uint256 id, uint256 value)',
  'event TransferBatch(address indexed operator, address indexed from, address indexed to, uint256[] ids, uint256[] values)',
  'event URI(string value, uint256 indexed id)',
]) as readonly AbiEvent[];

const functionsBySelector = new Map<string, AbiFunction[]>();
for (const f of FUNCTIONS) {
  const sel = toFunctionSelector(f);
  functionsBySelector.set(sel, [...(functionsBySelector.get(sel) ?? []), f]);
}
const eventsByTopic = new Map<string, AbiEvent[]>();
for (const e of EVENTS) {
  const topic = toEventSelector(e);
  eventsByTopic.set(topic, [...(eventsByTopic.get(topic) ?? []), e]);
}

/** Name of a known method, else the selector itself, null without one. */
export function methodName(methodId: Hex | null): string | null {
  if (methodId === null) return null;
  const f = functionsBySelector.get(methodId);
  return f?.[0]?.name ?? methodId;
}

export const isKnownMethod = (methodId: Hex | null): boolean => methodId !== null && functionsBySelector.has(methodId);

function signature(name: string, params: readonly AbiParameter[], withIndexed: boolean): string {
  const parts = params.map((p) => {
    const indexed = withIndexed && 'indexed' in p && p.indexed ? ' indexed' : '';
    return `${p.type}${indexed}${p.name ? ` ${p.name}` : ''}`;
  });
  return `${name}(${parts.join(', ')})`;
}

/** A decoded value as Blockscout renders it. */
export function renderValue(type: string, v: unknown): JsonValue {
  if (Array.isArray(v)) {
    const inner = type.endsWith(']') ? type.slice(0, type.lastIndexOf('[')) : type;
    return v.map((x) => renderValue(inner, x));
  }
  if (typeof v === 'bigint') return v.toString();
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (typeof v === 'string') return type === 'address' ? checksum(v.toLowerCase() as Hex) : v;
  if (typeof v === 'number') return String(v);
  if (v !== null && typeof v === 'object') return JSON.stringify(v, (_k, x: unknown) => (typeof x === 'bigint' ? x.toString() : x));
  return null;
}

/**
 * The selector was already matched, so the arguments are decoded directly
 * (viem's decodeFunctionData would hash every ABI item's signature on each call).
 */
export const decodeInput = (input: Hex): JsonObject | null => decodeInputMemo(input);
const decodeInputMemo = memoize((input: string) => decodeInputNow(input as Hex), { max: 20_000, maxKeyLength: 4096 });

function decodeInputNow(input: Hex): JsonObject | null {
  if (input.length < 10) return null;
  const candidates = functionsBySelector.get(input.slice(0, 10).toLowerCase()) ?? [];
  for (const f of candidates) {
    try {
      const values = decodeAbiParameters(f.inputs, `0x${input.slice(10)}`) as readonly unknown[];
      return {
        method_call: signature(f.name, f.inputs, false),
        method_id: input.slice(2, 10).toLowerCase(),
        parameters: f.inputs.map((p, i) => ({ name: p.name ?? '', type: p.type, value: renderValue(p.type, values[i]) })),
      };
    } catch {
      // wrong overload or malformed data: try the next candidate
    }
  }
  return null;
}

/** Indexed arguments from topics 1..3 (our events index only static types), the rest from data. */
export const decodeLog = (topics: readonly Hex[], data: Hex): JsonObject | null =>
  decodeLogMemo(`${topics.join(',')}|${data}`);
const decodeLogMemo = memoize(
  (key: string) => {
    const [topics, data] = key.split('|') as [string, string];
    return decodeLogNow(topics === '' ? [] : (topics.split(',') as Hex[]), data as Hex);
  },
  { max: 20_000, maxKeyLength: 4096 },
);

function decodeLogNow(topics: readonly Hex[], data: Hex): JsonObject | null {
  const topic0 = topics[0];
  if (topic0 === undefined) return null;
  for (const e of eventsByTopic.get(topic0.toLowerCase()) ?? []) {
    const indexed = e.inputs.filter((p) => p.indexed);
    if (indexed.length !== topics.length - 1) continue;
    try {
      const fromData = decodeAbiParameters(
        e.inputs.filter((p) => !p.indexed),
        data,
      ) as readonly unknown[];
      let t = 1;
      let d = 0;
      const values = e.inputs.map((p) => (p.indexed ? decodeAbiParameters([p], topics[t++] as Hex)[0] : fromData[d++]));
      return {
        method_call: signature(e.name, e.inputs, true),
        method_id: topic0.slice(2, 10).toLowerCase(),
        parameters: e.inputs.map((p, i) => ({
          indexed: p.indexed ?? false,
          name: p.name ?? '',
          type: p.type,
          value: renderValue(p.type, values[i]),
        })),
      };
    } catch {
      // data does not fit this overload
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

/** Error(string) and Panic(uint256) as DecodedInput; anything else null. */
export function decodeRevert(data: Hex): JsonObject | null {
  const selector = data.slice(0, 10).toLowerCase();
  try {
    if (selector === '0x08c379a0') {
      const [reason] = decodeAbiParameters([{ type: 'string', name: 'reason' }], `0x${data.slice(10)}`);
      return { method_call: 'Error(string reason)', method_id: '08c379a0', parameters: [{ name: 'reason', type: 'string', value: reason }] };
    }
    if (selector === '0x4e487b71') {
      const [code] = decodeAbiParameters([{ type: 'uint256', name: 'code' }], `0x${data.slice(10)}`);
      const text = PANIC_REASONS[code.toString()];
      return {
        method_call: 'Panic(uint256 code)',
        method_id: '4e487b71',
        parameters: [{ name: 'code', type: 'uint256', value: text === undefined ? code.toString() : `${code} (${text})` }],
      };
    }
  } catch {
    return null;
  }
  return null;
}

/** The text of an Error(string) revert, or a panic description; null when not decodable. */
export function revertText(data: Hex): string | null {
  const d = decodeRevert(data);
  const p = (d?.['parameters'] as readonly JsonObject[] | undefined)?.[0];
  return typeof p?.['value'] === 'string' ? p['value'] : null;
}

/** The selector of a known method by name (case-insensitive), null when no known ABI names it. */
export function knownSelectorOf(name: string): Hex | null {
  const wanted = name.toLowerCase();
  for (const [selector, fs] of functionsBySelector) if (fs.some((f) => f.name.toLowerCase() === wanted)) return selector as Hex;
  return null;
}
