/**
 * The pending step (lib/indexer/pending.ts) against a node whose head moves: a transaction gone
 * from the pool while the node holds a block the store has not yet written may have been mined
 * in it, so it is kept (it leaves with its block); on a turn with no new block, it is dropped.
 * A replaced one is dropped at once either way.
 */
import t from 'tap';
import type { ChainSource, PendingPoolRead } from '../../../lib/chain-source.ts';
import type { Address, Hash } from '../../../lib/domain/records.ts';
import type { DataSink } from '../../../lib/ports.ts';
import { createFactCache } from '../../../lib/indexer/facts.ts';
import { createPendingStep } from '../../../lib/indexer/pending.ts';
import { EMPTY_HEX, hash } from '../../../lib/domain/hex.ts';

const A = '0x00000000000000000000000000000000000000aa' as Address;
const h = (n: number): Hash => hash(`0x${n.toString(16).padStart(64, '0')}`);

function setup(nodeHead: { value: number }) {
  const held = [
    { hash: h(1), from: A, nonce: 0 },
    { hash: h(2), from: A, nonce: 1 },
  ];
  const dropped: Hash[][] = [];
  const pool: PendingPoolRead = {
    method: 'txpool_content',
    truncated: false,
    // h(1) gone (mined, or evicted); h(2) replaced by h(3)
    transactions: [{ hash: h(3), from: A, nonce: 1, to: null, value: 0n, gas: 21000n, gasPrice: 1n, maxFeePerGas: null, maxPriorityFeePerGas: null, type: 0, input: EMPTY_HEX }],
  };
  const source = {
    pendingPoolMethod: async () => 'txpool_content',
    readPendingPool: async () => pool,
    headNumber: async () => nodeHead.value,
    getCode: async () => '0x',
  } as unknown as ChainSource;
  const sink = {
    pendingTransactions: async () => held,
    dropPendingTransactions: async (hashes: readonly Hash[]) => void dropped.push([...hashes]),
    writePendingTransactions: async () => {},
  } as unknown as DataSink;
  const step = createPendingStep(source, sink, { log: () => {}, now: () => 0, limit: 100, cache: createFactCache(), aborted: () => false });
  return { step, dropped };
}

t.test('a block the store has not: the gone one kept, the replaced one dropped', async (t) => {
  const head = { value: 11 };
  const { step, dropped } = setup(head);
  const turn = await step.turn(10);
  t.same(dropped, [[h(2)]], 'only the replaced one');
  t.match(turn, { replaced: 1, gone: 0 });
});

t.test('no new block since the stored head: the gone one dropped too', async (t) => {
  const head = { value: 10 };
  const { step, dropped } = setup(head);
  const turn = await step.turn(10);
  t.same(dropped, [[h(2), h(1)]]);
  t.match(turn, { replaced: 1, gone: 1 });
});

t.test("the node's head unreadable this turn: nothing gone is dropped", async (t) => {
  const { step, dropped } = setup({
    get value(): number {
      throw new Error('node down');
    },
  });
  await step.turn(10);
  t.same(dropped, [[h(2)]]);
});
