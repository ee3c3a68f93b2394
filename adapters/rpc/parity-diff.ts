/**
 * A Parity-style `stateDiff` (trace_replayBlockTransactions with "stateDiff") → the PrestateDiff
 * prestateTracer's diffMode gives (anvil's, geth's): per account, `pre` the values before the
 * transaction and `post` those it changed.
 *
 * Parity gives each field as "=" (unchanged, value not said), {"+": v} (born), {"-": v} (died) or
 * {"*": {from, to}}. What diffMode would say and Parity does not:
 * - an unchanged field's value: diffMode's `pre` always holds an existing account's balance (and
 *   nonce and code); here `pre` holds a field only when Parity gives its old value. An account
 *   is in `pre` exactly when it existed before the transaction, as in diffMode, even with nothing
 *   known of it: an account in `pre` without a balance is one whose balance did not move, not one
 *   holding 0.
 * - an unchanged code: diffMode gives a touched contract's code in `pre`, Parity does not (a Safe
 *   proxy's master copy changed in a later block is not recognised from its code here).
 * - revm-inspectors' Parity diffs (anvil's, Reth's) say "=" of the code of an account that already
 *   existed even when it changed (an EIP-7702 delegation set or cleared), where diffMode shows it.
 * Otherwise the rules are diffMode's: an account born in the transaction is not in `pre`; one that
 * died is not in `post`; `post` holds only fields whose value changed; a zero nonce, empty code and
 * zero storage values are left out (a slot cleared is in `pre` only); accounts Parity says nothing
 * changed of are left out.
 */
import type { Address, Hash, Hex } from '../../lib/domain/records.ts';
import type { AccountState, PrestateDiff } from '../../lib/chain-source.ts';
import { address, big, hex, num, obj, RpcShapeError } from './parse.ts';
import { EMPTY_HEX } from '../../lib/domain/hex.ts';
import { ZERO_HASH } from '../../lib/domain/hex.ts';

/** A field's values around the transaction; null = Parity's "=" (unchanged, value unknown). */
type Change<T> = { readonly from: T; readonly to: T; readonly kind: '+' | '-' | '*' } | null;

function change<T>(v: unknown, zero: T, parse: (x: unknown, what: string) => T, what: string): Change<T> {
  if (v === '=' || v === undefined) return null;
  const o = obj(v, what);
  if ('+' in o) return { from: zero, to: parse(o['+'], `${what}.+`), kind: '+' };
  if ('-' in o) return { from: parse(o['-'], `${what}.-`), to: zero, kind: '-' };
  if ('*' in o) {
    const c = obj(o['*'], `${what}.*`);
    return { from: parse(c.from, `${what}.*.from`), to: parse(c.to, `${what}.*.to`), kind: '*' };
  }
  throw new RpcShapeError(`${what}: expected "=", {"+"}, {"-"} or {"*"}`);
}

const ZERO_WORD = ZERO_HASH;

/** A 32-byte word, lower-case and zero-padded. */
function word(v: unknown, what: string): Hash {
  const h = hex(v, what).slice(2);
  if (h.length > 64) throw new RpcShapeError(`${what}: longer than 32 bytes`);
  return `0x${h.padStart(64, '0')}` as Hash;
}

interface Account {
  balance?: bigint;
  nonce?: number;
  code?: Hex;
  storage?: Map<Hash, Hash>;
}

/** The account's `pre` and `post` states; null where it has none. */
function convertAccount(raw: unknown, what: string): { pre: Account | null; post: Account | null } | null {
  const a = obj(raw, what);
  const balance = change(a.balance, 0n, big, `${what}.balance`);
  const nonce = change(a.nonce, 0, num, `${what}.nonce`);
  const code = change(a.code, '0x' as Hex, hex, `${what}.code`);
  const storage = Object.entries(obj(a.storage ?? {}, `${what}.storage`)).flatMap(([slot, v]) => {
    const c = change(v, ZERO_WORD, word, `${what}.storage.${slot}`);
    return c === null || c.from === c.to ? [] : [{ slot: word(slot, `${what}.storage slot`), ...c }];
  });
  const fields = [balance, nonce, code];
  if (fields.every((f) => f === null) && storage.length === 0) return null;
  const born = fields.every((f) => f?.kind === '+');
  const died = fields.every((f) => f?.kind === '-');

  const pre: Account = {};
  if (balance !== null) pre.balance = balance.from;
  if (nonce !== null && nonce.from !== 0) pre.nonce = nonce.from;
  if (code !== null && code.from !== EMPTY_HEX) pre.code = code.from;
  const preSlots = storage.filter((s) => s.from !== ZERO_WORD);
  if (preSlots.length > 0) pre.storage = new Map(preSlots.map((s) => [s.slot, s.from]));

  const post: Account = {};
  if (balance !== null && balance.to !== balance.from) post.balance = balance.to;
  if (nonce !== null && nonce.to !== nonce.from && nonce.to !== 0) post.nonce = nonce.to;
  if (code !== null && code.to !== code.from && code.to !== EMPTY_HEX) post.code = code.to;
  const postSlots = storage.filter((s) => s.to !== ZERO_WORD);
  if (postSlots.length > 0) post.storage = new Map(postSlots.map((s) => [s.slot, s.to]));

  return { pre: born ? null : pre, post: died ? null : post };
}

export function parityStateDiff(transactionHash: Hash, stateDiff: unknown): PrestateDiff {
  const pre = new Map<Address, AccountState>();
  const post = new Map<Address, AccountState>();
  for (const [account, raw] of Object.entries(obj(stateDiff, `stateDiff of ${transactionHash}`))) {
    const key = address(account, `stateDiff of ${transactionHash}: address`);
    const states = convertAccount(raw, `stateDiff of ${transactionHash}.${key}`);
    if (states === null) continue;
    if (states.pre !== null) pre.set(key, states.pre);
    if (states.post !== null) post.set(key, states.post);
  }
  return { transactionHash, pre, post };
}
