/**
 * A swap: the actor's calls decode (a router's method, by the verified ABI or the signature
 * table) and, netted per asset, exactly one fungible asset left the actor and exactly one other
 * came back — `Swap {outgoing_amount} {outgoing_token} for {incoming_amount} {incoming_token}`,
 * `{native}` in place of a token for the chain's coin (sent as the calls' value, received as
 * internal transactions). ERC-20 and ERC-404 fungible legs count; NFTs do not.
 */
import type { Address, TokenRecord, TokenType } from '../../domain/records.ts';
import { NATIVE_DECIMALS, scaled } from '../amounts.ts';
import type { SummaryInput, SummaryItem, SummaryScope, SummaryVariable } from '../types.ts';
import { currency, text, token } from '../types.ts';

const NATIVE = 'native';

interface Leg {
  readonly asset: Address | typeof NATIVE;
  readonly tokenType: TokenType | null;
  readonly amount: bigint;
}

/** The actor's net movement per asset: positive = received. */
function netMovements(input: SummaryInput, scope: SummaryScope): Map<string, Leg> {
  const net = new Map<string, Leg>();
  const add = (asset: Address | typeof NATIVE, tokenType: TokenType | null, amount: bigint): void => {
    const prev = net.get(asset);
    net.set(asset, { asset, tokenType, amount: (prev?.amount ?? 0n) + amount });
  };
  for (const c of scope.calls) if (c.input.length > 2 && c.value > 0n) add(NATIVE, null, -c.value);
  for (const it of input.internalTransactions) {
    if (it.to === scope.actor && it.from !== scope.actor && it.value > 0n && it.error === null && it.type === 'call') add(NATIVE, null, it.value);
  }
  for (const t of input.tokenTransfers) {
    if (t.tokenIds.length > 0 || t.amount === null || t.from === t.to) continue;
    if (t.from === scope.actor) add(t.tokenAddress, t.tokenType, -t.amount);
    if (t.to === scope.actor) add(t.tokenAddress, t.tokenType, t.amount);
  }
  return net;
}

function side(leg: Leg, name: 'outgoing' | 'incoming', tokens: ReadonlyMap<Address, TokenRecord>): { phrase: string; variables: Record<string, SummaryVariable> } {
  const amount = leg.amount < 0n ? -leg.amount : leg.amount;
  if (leg.asset === NATIVE) return { phrase: `{${name}_amount} {native}`, variables: { [`${name}_amount`]: currency(scaled(amount, BigInt(NATIVE_DECIMALS))) } };
  return {
    phrase: `{${name}_amount} {${name}_token}`,
    variables: {
      [`${name}_amount`]: currency(scaled(amount, tokens.get(leg.asset)?.decimals ?? null)),
      [`${name}_token`]: token(leg.asset, leg.tokenType ?? 'ERC-20'),
    },
  };
}

export function swap(input: SummaryInput, scope: SummaryScope): SummaryItem | null {
  if (!scope.calls.some((c) => c.input.length >= 10 && c.decoded !== null)) return null;
  const legs = [...netMovements(input, scope).values()].filter((l) => l.amount !== 0n);
  const out = legs.filter((l) => l.amount < 0n);
  const inc = legs.filter((l) => l.amount > 0n);
  const [give] = out;
  const [get] = inc;
  if (out.length !== 1 || inc.length !== 1 || give === undefined || get === undefined) return null;
  const a = side(give, 'outgoing', input.tokens);
  const b = side(get, 'incoming', input.tokens);
  return { template: `{action_type} ${a.phrase} for ${b.phrase}`, variables: { action_type: text('Swap'), ...a.variables, ...b.variables } };
}
