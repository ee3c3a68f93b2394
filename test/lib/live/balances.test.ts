/**
 * Balance events on addresses:{h} (reference blockscout-live.md §3): for every followed address
 * whose balance a batch recorded, `balance` equals /addresses/{h} (coin_balance,
 * block_number_balance_updated_at), `coin_balance` the /addresses/{h}/coin-balance-history item
 * of that block (sent only when its delta is not 0, with `current_coin_balance`), and for every
 * token type the batch's transfers touched, `updated_token_balances_{type}` holds the
 * /addresses/{h}/token-balances items of the touched tokens (value "0" for one emptied), at most
 * 50, sorted as Blockscout sorts, `overflow` beyond. Over memory and SQL stores; a batch of 15
 * blocks, then batches of 5.
 */
import t from 'tap';
import { buildFixtureChain } from '../../../fixture/index.ts';
import type { Address, ChangeFeed, JsonObject, LiveEvent } from '../../../lib/index.ts';
import { call, createExplorer } from '../../../lib/index.ts';
import { storeFactories } from '../../support/stores.ts';

const chain = buildFixtureChain();
const f = chain.facts;
const ZERO: string = '0x0000000000000000000000000000000000000000';
const lower = (a: string): Address => a.toLowerCase() as Address;
const followed = [...new Set([f.hotAddress, f.hotOwner, ...Object.values(f.eoas), f.miner, f.secondMiner, ...f.airdropRecipients.slice(0, 3)].map(lower))];
const eventOf = (type: string): string => `updated_token_balances_${type.toLowerCase().replace(/-/g, '_')}`;

const settle = async (ok: () => boolean): Promise<void> => {
  for (let i = 0; i < 3000 && !ok(); i++) await new Promise((r) => setTimeout(r, 10));
};

for (const factory of await storeFactories()) {
  t.test(`balance events equal the API's answers (${factory.name})`, async (t) => {
    const store = await factory.open();
    t.teardown(() => store.close());
    const feed = (store as unknown as { feed: ChangeFeed }).feed;
    await store.writeBlocks(chain.bundles.slice(0, 10));
    const explorer = createExplorer({ chains: { '1': { store, feed } } });
    const api = async (name: 'address' | 'addressCoinBalanceHistory' | 'addressTokenBalances', address: string, query: Record<string, string> = {}): Promise<unknown> =>
      (await call(explorer, name, { params: { address_hash_param: address }, query })).body;

    const heard: LiveEvent[] = [];
    for (const a of followed) explorer.subscribe(`addresses:${a}`, (e) => heard.push(e));
    const heights: number[] = [];
    explorer.subscribe('blocks:new_block', (e) => heights.push(Number((e.payload['block'] as JsonObject)['height'])));

    const counts = { balance: 0, coin_balance: 0, tokens: 0, zeros: 0, overflow: 0 };
    const batches = [chain.bundles.slice(10, 25)];
    for (let i = 25; i < chain.bundles.length; i += 5) batches.push(chain.bundles.slice(i, i + 5));
    for (const batch of batches) {
      heard.length = 0;
      const top = Math.max(...batch.map((b) => b.block.number));
      const range = { from: Math.min(...batch.map((b) => b.block.number)), to: top };
      await store.writeBlocks(batch);
      await settle(() => heights.includes(top));
      const label = `blocks ${range.from}–${range.to}`;

      for (const a of followed) {
        const mine = heard.filter((e) => e.topic === `addresses:${a}`);
        const one = (event: string): LiveEvent | undefined => {
          const all = mine.filter((e) => e.event === event);
          if (all.length > 1) t.fail(`${label} ${a}: ${event} sent ${all.length} times`);
          return all[0];
        };

        // coin balance: the newest record of the batch
        const records = batch.flatMap((b) => b.coinBalances).filter((c) => lower(c.address) === a);
        const balance = one('balance');
        if (records.length === 0) {
          t.equal(balance, undefined, `${label} ${a}: no balance without a record`);
        } else {
          const newest = Math.max(...records.map((r) => r.blockNumber));
          const detail = (await api('address', a)) as JsonObject;
          t.strictSame(
            balance?.payload,
            { balance: detail['coin_balance'], block_number: detail['block_number_balance_updated_at'], exchange_rate: detail['exchange_rate'] },
            `${label} ${a}: balance equals /addresses/{h}`,
          );
          t.equal(balance?.payload['block_number'], newest, `${label} ${a}: the batch's newest record`);
          counts.balance++;
          const history = (await api('addressCoinBalanceHistory', a, { block_number: String(newest + 1) })) as { items: JsonObject[] };
          const item = history.items[0];
          const changed = item !== undefined && item['block_number'] === newest;
          const coin = one('coin_balance');
          const current = one('current_coin_balance');
          if (changed) {
            t.strictSame(coin?.payload, { coin_balance: item }, `${label} ${a}: coin_balance equals the coin-balance-history item`);
            t.strictSame(current?.payload, { coin_balance: item['value'], exchange_rate: null, block_number: newest }, `${label} ${a}: current_coin_balance`);
            counts.coin_balance++;
          } else {
            t.equal(coin, undefined, `${label} ${a}: no coin_balance for a zero delta`);
            t.equal(current, undefined, `${label} ${a}: no current_coin_balance for a zero delta`);
          }
        }

        // token balances: per type the batch's transfers touched
        const touched = new Map<string, Set<string>>();
        for (const tt of batch.flatMap((b) => b.tokenTransfers)) {
          for (const party of [tt.from, tt.to]) {
            if (lower(party) !== a || a === ZERO) continue;
            const ids = tt.tokenType === 'ERC-20' || tt.tokenType === 'ERC-721' || tt.tokenIds.length === 0 ? [null] : tt.tokenIds;
            const keys = touched.get(tt.tokenType) ?? new Set<string>();
            for (const id of ids) keys.add(`${lower(tt.tokenAddress)}/${id === null ? '' : id.toString()}`);
            touched.set(tt.tokenType, keys);
          }
        }
        const tokenEvents = mine.filter((e) => e.event.startsWith('updated_token_balances_'));
        t.same(tokenEvents.map((e) => e.event).sort(), [...touched.keys()].map(eventOf).sort(), `${label} ${a}: one event per type touched`);
        if (tokenEvents.length === 0) continue;
        const all = (await api('addressTokenBalances', a)) as JsonObject[];
        const keyOf = (i: JsonObject): string => `${lower(String((i['token'] as JsonObject)['address_hash']))}/${i['token_id'] === null ? '' : String(i['token_id'])}`;
        const byKey = new Map(all.map((i) => [keyOf(i), i]));
        for (const [type, keys] of touched) {
          const e = tokenEvents.find((x) => x.event === eventOf(type));
          const items = (e?.payload['token_balances'] ?? []) as JsonObject[];
          t.equal(e?.payload['overflow'], keys.size > 50, `${label} ${a} ${type}: overflow when more than 50 were touched`);
          t.equal(items.length, Math.min(50, keys.size), `${label} ${a} ${type}: the touched balances, at most 50`);
          let ok = true;
          for (const item of items) {
            const key = keyOf(item);
            if (!keys.has(key)) ok = t.fail(`${label} ${a} ${type}: ${key} was not touched`);
            const expected = byKey.get(key);
            if (expected === undefined) {
              if (item['value'] !== '0') ok = t.fail(`${label} ${a} ${type}: ${key} is not held but sent as ${String(item['value'])}`);
              counts.zeros++;
            } else if (JSON.stringify(item) !== JSON.stringify(expected)) {
              ok = t.strictSame(item, expected, `${label} ${a} ${type}: ${key} equals the token-balances item`);
            }
          }
          t.ok(ok, `${label} ${a} ${type}: ${items.length} items equal the token-balances items`);
          // without exchange rates (USDX's aside) Blockscout's order is the amount in whole tokens, descending
          const amounts = items.map((i) => Number(String(i['value'])) / 10 ** Number((i['token'] as JsonObject)['decimals'] ?? 0));
          if (type !== 'ERC-20') t.same(amounts, [...amounts].sort((x, y) => y - x), `${label} ${a} ${type}: sorted by amount, descending`);
          counts.tokens++;
          if (e?.payload['overflow'] === true) counts.overflow++;
        }
      }
    }
    t.ok(counts.balance > 20 && counts.coin_balance > 10 && counts.tokens > 20 && counts.overflow > 0, `events checked: ${JSON.stringify(counts)}`);
  });
}
