/**
 * `collated` on `transactions:{hash}` (reference blockscout-live.md §5.1): the frontend's
 * transaction page joins that topic while the transaction is pending and waits for it; sent once
 * the transaction's block is written, with an empty payload, on the lowercase topic only; a
 * transaction not mined gets nothing; `transactions:{hash}` is joined, junk after `transactions:`
 * stays an accepted silent topic as in Blockscout. Over memory and SQL stores.
 */
import t from 'tap';
import type { ChangeFeed, LiveEvent } from '../../../lib/index.ts';
import { createExplorer, parseTopic } from '../../../lib/index.ts';
import { B, block, bundle, tx } from '../../ports/records.ts';
import { storeFactories } from '../../support/stores.ts';

const settle = async (ok: () => boolean): Promise<void> => {
  for (let i = 0; i < 1000 && !ok(); i++) await new Promise((r) => setTimeout(r, 10));
};
const quiet = (): Promise<void> => new Promise((r) => setTimeout(r, 150));

function mined(n: number) {
  const b = { ...block(n), transactionsCount: 1 };
  return bundle(b, { transactions: [tx(b, 0, { tag: `c${n}`, to: B, value: 1n })] });
}

t.test('the topic parses as a transaction topic', async (t) => {
  const hash = `0x${'ab'.repeat(32)}`;
  t.same(parseTopic(`transactions:${hash}`), { kind: 'transaction', hash });
  t.same(parseTopic('transactions:whatever'), { kind: 'silent' }, 'anything else after transactions: is accepted and silent, as Blockscout accepts it');
});

for (const factory of await storeFactories()) {
  t.test(`collated once the transaction is mined (${factory.name})`, async (t) => {
    const store = await factory.open();
    t.teardown(() => store.close());
    const feed = (store as unknown as { feed: ChangeFeed }).feed;
    await store.writeBlocks([mined(0)]);
    const explorer = createExplorer({ chains: { '1': { store, feed } } });
    const later = [mined(1), mined(2)];
    const [first, second] = later.map((b) => (b.transactions[0] as { hash: string }).hash) as [string, string];
    const heard: LiveEvent[] = [];
    for (const topic of [`transactions:${first}`, 'transactions:new_transaction']) explorer.subscribe(topic, (e) => heard.push(e));
    await store.writeBlocks([later[0] as (typeof later)[number]]);
    await settle(() => heard.some((e) => e.event === 'collated'));
    await quiet();
    t.same(
      heard.filter((e) => e.topic !== 'transactions:new_transaction').map((e) => [e.topic, e.event, e.payload]),
      [[`transactions:${first}`, 'collated', {}]],
      'once, an empty payload',
    );
    heard.length = 0;
    await store.writeBlocks([later[1] as (typeof later)[number]]);
    await settle(() => heard.length > 0);
    await quiet();
    t.same(heard.map((e) => e.event), ['transaction'], `another transaction's block: nothing on transactions:${first.slice(0, 10)}… (${second.slice(0, 10)}… mined)`);
  });
}
