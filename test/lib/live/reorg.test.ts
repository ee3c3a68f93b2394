/**
 * A reorg on the live topics, as Blockscout announces one (reference blockscout-live.md §3, §4):
 * the blocks that replace the rolled-back ones arrive as `new_block` at once, though their
 * heights were sent before, equal to the /blocks items after the reorg; their transactions are
 * counted on transactions:new_transaction and sent on the parties' addresses:{h}; nothing is sent
 * for the blocks removed. Both ways a sink is reorganised: rollbackAbove then writeBlocks (the
 * indexer's), and writeBlocks over a stored height. With `blockBroadcast: 'count'`
 * (BLOCK_BROADCAST_TYPE=count) the batch is one `new_blocks_count` {count, type: "block"} and
 * the miners' topics get nothing. Over memory and SQL stores.
 */
import t from 'tap';
import type { ChangeFeed, JsonObject, LiveEvent } from '../../../lib/index.ts';
import { call, createExplorer } from '../../../lib/index.ts';
import { A, B, C, block, bundle, tx } from '../../ports/records.ts';
import { storeFactories } from '../../support/stores.ts';

const settle = async (ok: () => boolean): Promise<void> => {
  for (let i = 0; i < 1000 && !ok(); i++) await new Promise((r) => setTimeout(r, 10));
};
const quiet = (): Promise<void> => new Promise((r) => setTimeout(r, 150));

/** block n with one transaction from A to `to` (tag: a replacement's) */
function mined(n: number, o: { tag?: string; to?: typeof B; miner?: typeof C } = {}) {
  const b = { ...block(n, { tag: o.tag ?? '', ...(o.miner === undefined ? {} : { miner: o.miner }) }), transactionsCount: 1 };
  return bundle(b, { transactions: [tx(b, 0, { tag: `t${n}${o.tag ?? ''}`, to: o.to ?? B, value: 1n })] });
}

for (const factory of await storeFactories()) {
  for (const mode of ['block', 'count'] as const) {
    t.test(`a reorg on the live topics (${factory.name}, ${mode})`, async (t) => {
      const store = await factory.open();
      t.teardown(() => store.close());
      const feed = (store as unknown as { feed: ChangeFeed }).feed;
      await store.writeBlocks(Array.from({ length: 10 }, (_, n) => mined(n)));
      const explorer = createExplorer({ chains: { '1': { store, feed } }, live: { blockBroadcast: mode } });
      const heard: LiveEvent[] = [];
      for (const topic of ['blocks:new_block', `blocks:${C.toLowerCase()}`, 'transactions:new_transaction', `addresses:${A}`, `addresses:${B}`, `addresses:${C}`]) {
        explorer.subscribe(topic, (e) => heard.push(e));
      }
      const blocksItem = async (height: number): Promise<JsonObject | undefined> =>
        ((await call(explorer, 'blocks', { query: { block_number: String(height + 1), items_count: '1' } })).body as { readonly items: readonly JsonObject[] }).items[0];

      // the indexer's way: back to the common ancestor, then the new branch (two changes)
      await store.rollbackAbove(7);
      await quiet();
      t.same(heard, [], 'nothing for the blocks removed');
      const branch = [mined(8, { tag: 'x', to: C, miner: C }), mined(9, { tag: 'x', to: C, miner: C })];
      await store.writeBlocks(branch);
      const counted = (): LiveEvent[] => heard.filter((e) => e.topic === 'transactions:new_transaction');
      await settle(() => counted().length > 0);
      await quiet();

      const onNew = heard.filter((e) => e.topic === 'blocks:new_block');
      if (mode === 'block') {
        t.same(
          onNew.map((e) => [e.event, (e.payload['block'] as JsonObject)['height'], (e.payload['block'] as JsonObject)['hash']]),
          branch.map((b) => ['new_block', b.block.number, b.block.hash]),
          'the replacing blocks, at heights sent before, in order, once',
        );
        for (const e of onNew) {
          const block = e.payload['block'] as JsonObject;
          t.strictSame(block, await blocksItem(Number(block['height'])), `block ${String(block['height'])} equals the /blocks item after the reorg`);
        }
        t.same(
          heard.filter((e) => e.topic === `blocks:${C.toLowerCase()}`).map((e) => (e.payload['block'] as JsonObject)['hash']),
          branch.map((b) => b.block.hash),
          'and on the new miner’s topic',
        );
      } else {
        t.strictSame(
          onNew.map((e) => [e.event, e.payload]),
          [['new_blocks_count', { count: 2, type: 'block' }]],
          'one new_blocks_count for the batch, type block',
        );
        t.same(
          heard.filter((e) => e.topic === `blocks:${C.toLowerCase()}`),
          [],
          'count mode sends nothing on the miners’ topics',
        );
      }
      t.strictSame(
        counted().map((e) => e.payload),
        [{ transaction: 2 }],
        'the new branch’s transactions counted',
      );
      const toC = heard.filter((e) => e.topic === `addresses:${C}` && e.event === 'transaction');
      t.same(
        toC.flatMap((e) => (e.payload['transactions'] as JsonObject[]).map((x) => x['hash'])),
        branch.map((b) => b.transactions[0]?.hash),
        'the new receiver hears of the new branch’s transactions',
      );
      t.same(
        heard.filter((e) => e.topic === `addresses:${B}`),
        [],
        'the old receiver hears nothing',
      );

      // a write over a stored height: one change that rolls back and adds
      heard.length = 0;
      const replaced = mined(9, { tag: 'y', to: B });
      await store.writeBlocks([replaced]);
      await settle(() => counted().length > 0);
      await quiet();
      const again = heard.filter((e) => e.topic === 'blocks:new_block');
      if (mode === 'block') {
        t.same(
          again.map((e) => (e.payload['block'] as JsonObject)['hash']),
          [replaced.block.hash],
          'the block written over height 9 is sent',
        );
        t.strictSame(again[0]?.payload['block'], await blocksItem(9), 'equal to the /blocks item');
      } else {
        t.strictSame(
          again.map((e) => e.payload),
          [{ count: 1, type: 'block' }],
          'counted',
        );
      }
      t.same(
        heard.filter((e) => e.topic === `addresses:${B}` && e.event === 'transaction').flatMap((e) => (e.payload['transactions'] as JsonObject[]).map((x) => x['hash'])),
        [replaced.transactions[0]?.hash],
        'its receiver hears of its transaction',
      );
    });
  }
}
