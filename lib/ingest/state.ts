/**
 * Balances and state changes. Coin: exact, from prestateTracer diffs (before = pre balance or
 * 0 for a new account, after = post balance or unchanged). Token: from the block's transfers,
 * anchored on balances read at the end of the block and replayed backwards to the block's
 * start, then forwards transaction by transaction. Pure.
 */
import type { Address, CoinBalanceRecord, Hash, StateChangeRecord, TokenType } from '../domain/records.ts';
import type { PrestateDiff } from '../chain-source.ts';
import type { DecodedTransfer } from './transfers.ts';
import { transferLegs } from './transfers.ts';
import { ZERO_ADDRESS } from '../domain/hex.ts';

export interface CoinChange {
  readonly address: Address;
  readonly before: bigint;
  readonly after: bigint;
}

/** Coin balance changes of one transaction, in descending address order; unchanged ones left out. */
export function coinChanges(diff: PrestateDiff): CoinChange[] {
  const addresses = new Set<Address>([...diff.pre.keys(), ...diff.post.keys()]);
  const out: CoinChange[] = [];
  for (const address of addresses) {
    const before = diff.pre.get(address)?.balance ?? 0n;
    const after = diff.post.get(address)?.balance ?? before;
    if (before !== after) out.push({ address, before, after });
  }
  return out.sort((a, b) => (a.address < b.address ? 1 : a.address > b.address ? -1 : 0));
}

/** End-of-block coin balances of every account a block's diffs mention. */
export function coinBalancesFromDiffs(diffs: readonly PrestateDiff[], blockNumber: number): CoinBalanceRecord[] {
  const last = new Map<Address, bigint>();
  for (const d of diffs) {
    for (const [address, state] of d.pre) if (!last.has(address) && state.balance !== undefined) last.set(address, state.balance);
    for (const [address, state] of d.post) if (state.balance !== undefined) last.set(address, state.balance);
    // an account new in the transaction (post only) without a balance holds none; one the diff saw before keeps what it had
    for (const address of d.post.keys()) if (!last.has(address) && !d.pre.has(address)) last.set(address, 0n);
  }
  return [...last.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([address, value]) => ({ address, blockNumber, value }));
}

export const tokenBalanceKey = (holder: Address, token: Address, id: bigint | null): string =>
  `${token}|${holder}|${id === null ? '' : id.toString()}`;

export interface TokenKey {
  readonly holder: Address;
  readonly token: Address;
  readonly id: bigint | null;
}

/** Every (holder, token, id) a block's transfers touch; the zero address is left out. */
export function touchedTokenKeys(transfers: readonly DecodedTransfer[]): TokenKey[] {
  const out = new Map<string, TokenKey>();
  for (const t of transfers) {
    for (const leg of transferLegs(t)) {
      for (const holder of [t.from, t.to]) {
        if (holder === ZERO_ADDRESS) continue;
        out.set(tokenBalanceKey(holder, t.token, leg.id), { holder, token: t.token, id: leg.id });
      }
    }
  }
  return [...out.values()];
}

function deltas(t: DecodedTransfer): Map<string, { key: TokenKey; delta: bigint }> {
  const out = new Map<string, { key: TokenKey; delta: bigint }>();
  const add = (holder: Address, id: bigint | null, d: bigint): void => {
    if (holder === ZERO_ADDRESS) return;
    const k = tokenBalanceKey(holder, t.token, id);
    const e = out.get(k);
    if (e === undefined) out.set(k, { key: { holder, token: t.token, id }, delta: d });
    else e.delta += d;
  };
  for (const leg of transferLegs(t)) {
    add(t.from, leg.id, -leg.amount);
    add(t.to, leg.id, leg.amount);
  }
  return out;
}

export interface TokenStateInput {
  /** the block's transfers whose token type is known, in log order */
  readonly transfers: readonly (DecodedTransfer & { readonly tokenType: TokenType })[];
  /** balance at the end of the block by tokenBalanceKey; missing or null = unknown */
  readonly endBalances: ReadonlyMap<string, bigint | null>;
  readonly miner: Address;
}

/**
 * Token state changes per transaction (before/after per holder/token(/id)), sorted like
 * Blockscout: by holder, token, id. Fungible entries only when the balance moved. Keys whose
 * end balance is unknown get no entry.
 */
export function tokenStateChanges(input: TokenStateInput): Map<Hash, Omit<StateChangeRecord, 'ordinal'>[]> {
  const current = new Map<string, bigint>();
  const blockDelta = new Map<string, bigint>();
  for (const t of input.transfers) for (const [k, { delta }] of deltas(t)) blockDelta.set(k, (blockDelta.get(k) ?? 0n) + delta);
  for (const [k, d] of blockDelta) {
    const end = input.endBalances.get(k);
    if (end !== undefined && end !== null) current.set(k, end - d);
  }
  const byTx = new Map<Hash, (DecodedTransfer & { readonly tokenType: TokenType })[]>();
  for (const t of input.transfers) {
    const list = byTx.get(t.transactionHash);
    if (list === undefined) byTx.set(t.transactionHash, [t]);
    else list.push(t);
  }
  const out = new Map<Hash, Omit<StateChangeRecord, 'ordinal'>[]>();
  for (const [hash, transfers] of byTx) {
    const keys = new Map<string, { key: TokenKey; type: TokenType }>();
    const before = new Map<string, bigint>();
    for (const t of transfers) {
      for (const [k, { key }] of deltas(t)) {
        if (!keys.has(k)) keys.set(k, { key, type: t.tokenType });
        const v = current.get(k);
        if (v !== undefined && !before.has(k)) before.set(k, v);
      }
      for (const [k, { delta }] of deltas(t)) {
        const v = current.get(k);
        if (v !== undefined) current.set(k, v + delta);
      }
    }
    const entries: Omit<StateChangeRecord, 'ordinal'>[] = [];
    const sorted = [...keys.values()].sort(
      (x, y) => cmp(x.key.holder, y.key.holder) || cmp(x.key.token, y.key.token) || cmp(x.key.id ?? -1n, y.key.id ?? -1n),
    );
    for (const { key, type } of sorted) {
      const k = tokenBalanceKey(key.holder, key.token, key.id);
      const b = before.get(k);
      const a = current.get(k);
      if (b === undefined || a === undefined) continue;
      if (type === 'ERC-20' && a === b) continue;
      entries.push({
        transactionHash: hash,
        address: key.holder,
        type: 'token',
        tokenAddress: key.token,
        tokenId: key.id,
        balanceBefore: b,
        balanceAfter: a,
        isMiner: key.holder === input.miner,
      });
    }
    out.set(hash, entries);
  }
  return out;
}

function cmp<T extends string | bigint>(a: T, b: T): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
