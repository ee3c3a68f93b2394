/**
 * The balance events of `addresses:{h}` for a batch of blocks (reference blockscout-live.md §3, §4),
 * computed only for the addresses someone follows, rendered as the API renders them:
 *
 * - `balance` `{balance, block_number, exchange_rate}`: the address's newest coin-balance record
 *   of the batch (what /addresses/{h} answers as `coin_balance` and `block_number_balance_updated_at`
 *   once the batch is the newest);
 * - `coin_balance` `{coin_balance: item}` and `current_coin_balance` `{coin_balance, exchange_rate,
 *   block_number}`: for that record when its delta to the next older one is not 0 — the item is
 *   the /addresses/{h}/coin-balance-history item of that block (lib/render/coinBalance.ts).
 *   Blockscout's own item has `transaction_hash` null here (its query does not look it up); ours
 *   names the transaction, as the list does.
 * - `updated_token_balances_{type}` `{token_balances, overflow}` (type lowercased, `-` → `_`): the
 *   current balances of the address that the batch's transfers touched, one event per token
 *   type, at most 50, sorted as Blockscout sorts them (fiat value, then the amount in whole
 *   tokens, descending; ties in the API's order), `overflow` when more were touched. Each item
 *   is the /addresses/{h}/token-balances item of that token and id (`token_instance` null); a
 *   balance the batch emptied is sent with value "0", as Blockscout sends the updated row.
 *
 * Exchange rates are null: scoutkit keeps no coin price.
 */
import type { Address, TokenRecord, TokenTransferRecord, TokenType } from '../domain/records.ts';
import { renderBalances } from '../endpoints/tokenBalances.ts';
import type { JsonObject } from '../json.ts';
import type { DataSource, TokenHolding } from '../ports.ts';
import { renderCoinBalanceChanges } from '../render/coinBalance.ts';
import { ZERO_ADDRESS } from '../domain/hex.ts';
import { expandTransfer } from '../render/transfer.ts';
import { TOPICS } from './topics.ts';

/** at most this many balances per address and type in one event (Blockscout's limit) */
export const TOKEN_BALANCES_LIMIT = 50;

/** holdings read per page when an address's balances of a type are gathered */
const CHUNK = 1000;

type Push = (topic: string, event: string, payload: JsonObject) => void;

const lower = (a: string): Address => a.toLowerCase() as Address;

/** `balance`, `coin_balance` and `current_coin_balance` of the followed addresses with a balance record in `range`. */
export async function coinBalanceEvents(ds: DataSource, range: { readonly from: number; readonly to: number }, followed: readonly Address[], push: Push): Promise<void> {
  if (followed.length === 0) return;
  const current = await ds.getCoinBalances(followed);
  for (const latest of current) {
    if (latest.blockNumber < range.from) continue;
    const address = lower(latest.address);
    // a later write may already have stored a newer one: this batch's newest is read in its range
    const newest = latest.blockNumber <= range.to ? latest : (await ds.listCoinBalances({ address, blocks: range }, { after: null, limit: 1, order: 'desc' }))[0];
    if (newest === undefined) continue;
    const topic = TOPICS.address(address);
    push(topic, 'balance', { balance: newest.value.toString(), block_number: newest.blockNumber, exchange_rate: null });
    const [record, older] = await ds.listCoinBalances({ address }, { after: { blockNumber: newest.blockNumber + 1 }, limit: 2, order: 'desc' });
    if (record === undefined || record.blockNumber !== newest.blockNumber) continue;
    const delta = record.value - (older?.value ?? 0n);
    if (delta === 0n) continue;
    const [item] = await renderCoinBalanceChanges(ds, address, [{ record, delta }]);
    if (item === undefined) continue;
    push(topic, 'coin_balance', { coin_balance: item });
    push(topic, 'current_coin_balance', { coin_balance: record.value.toString(), exchange_rate: null, block_number: record.blockNumber });
  }
}

/** The event name of a token type's balances: `updated_token_balances_erc_20`, … */
export const tokenBalancesEvent = (type: TokenType): string => `updated_token_balances_${type.toLowerCase().replace(/-/g, '_')}`;

const balanceKey = (token: Address, id: bigint | null): string => `${lower(token)}/${id === null ? '' : id.toString()}`;

/** `updated_token_balances_*` of the followed addresses among the parties of these transfers. */
export async function tokenBalanceEvents(ds: DataSource, transfers: readonly TokenTransferRecord[], followed: ReadonlySet<Address>, push: Push): Promise<void> {
  // holder → type → the balances (token and id) the transfers touched
  const touched = new Map<Address, Map<TokenType, Map<string, { token: Address; id: bigint | null }>>>();
  for (const item of transfers.flatMap((r) => expandTransfer(r))) {
    const { record } = item;
    // ERC-20 and ERC-721 balances are per token; ERC-1155 (and ERC-404 ids) per id
    const id = record.tokenType === 'ERC-20' || record.tokenType === 'ERC-721' ? null : item.tokenId;
    for (const party of [record.from, record.to]) {
      const holder = lower(party);
      if (holder === ZERO_ADDRESS || !followed.has(holder)) continue;
      let types = touched.get(holder);
      if (types === undefined) touched.set(holder, (types = new Map()));
      let keys = types.get(record.tokenType);
      if (keys === undefined) types.set(record.tokenType, (keys = new Map()));
      keys.set(balanceKey(record.tokenAddress, id), { token: lower(record.tokenAddress), id });
    }
  }
  for (const [holder, types] of touched) {
    for (const [type, keys] of types) {
      const holdings = await allHoldings(ds, holder, type);
      const updated = holdings.filter((h) => keys.has(balanceKey(h.tokenAddress, h.tokenId)));
      const held = new Set(updated.map((h) => balanceKey(h.tokenAddress, h.tokenId)));
      for (const [key, { token, id }] of keys) {
        if (held.has(key)) continue;
        updated.push({ holder, tokenAddress: token, tokenType: type, tokenId: id, value: 0n, token: await ds.getToken(token) });
      }
      const sorted = sortAsBlockscout(updated);
      push(TOPICS.address(holder), tokenBalancesEvent(type), {
        token_balances: renderBalances(sorted.slice(0, TOKEN_BALANCES_LIMIT), null),
        overflow: sorted.length > TOKEN_BALANCES_LIMIT,
      });
    }
  }
}

async function allHoldings(ds: DataSource, holder: Address, type: TokenType): Promise<TokenHolding[]> {
  const rows: TokenHolding[] = [];
  for (;;) {
    const last = rows[rows.length - 1];
    const batch = await ds.listTokenHoldings(
      { holder, types: [type] },
      { after: last === undefined ? null : { value: last.value, tokenAddress: last.tokenAddress, tokenId: last.tokenId }, limit: CHUNK, order: 'desc' },
    );
    rows.push(...batch);
    if (batch.length < CHUNK) return rows;
  }
}

/** a non-negative rational: numerator / denominator */
interface Ratio {
  readonly n: bigint;
  readonly d: bigint;
}

const compare = (a: Ratio, b: Ratio): number => {
  const l = a.n * b.d;
  const r = b.n * a.d;
  return l < r ? -1 : l > r ? 1 : 0;
};

/** a decimal string as a ratio (null when it is not one) */
function decimal(text: string): Ratio | null {
  const m = /^(\d*)(?:\.(\d*))?$/.exec(text.trim());
  if (m === null || (m[1] === '' && (m[2] ?? '') === '')) return null;
  const frac = m[2] ?? '';
  return { n: BigInt(`${m[1] === '' ? '0' : m[1]}${frac}`), d: 10n ** BigInt(frac.length) };
}

/** Blockscout's key: (fiat value, amount) — with decimals: amount in whole tokens, fiat = amount × rate (0 without a rate); without: (0, raw value). */
function sortKey(token: TokenRecord | null, value: bigint): [Ratio, Ratio] {
  const zero = { n: 0n, d: 1n };
  if (token === null || token.decimals === null) return [zero, { n: value, d: 1n }];
  const amount = { n: value, d: 10n ** token.decimals };
  const rate = token.exchangeRate === null ? null : decimal(token.exchangeRate);
  return [rate === null ? zero : { n: amount.n * rate.n, d: amount.d * rate.d }, amount];
}

/** descending by (fiat, amount); a stable sort, so ties keep the API's order */
function sortAsBlockscout(rows: readonly TokenHolding[]): TokenHolding[] {
  const keyed = rows.map((row) => ({ row, key: sortKey(row.token, row.value) }));
  keyed.sort((a, b) => compare(b.key[0], a.key[0]) || compare(b.key[1], a.key[1]));
  return keyed.map((k) => k.row);
}
