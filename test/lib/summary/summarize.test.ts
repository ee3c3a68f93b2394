/** The rules together: order, the cap, the status, the empty summary. */
import t from 'tap';
import { MAX_SUMMARIES, summarize } from '../../../lib/summary/summarize.ts';
import { APPROVAL_TOPIC } from '../../../lib/summary/rules/approvals.ts';
import { hex } from '../../../lib/domain/hex.ts';
import { ALICE, BOB, PUNK, ROUTER, USD, ZERO, addr, fungible, input, nft, rawLog, said, topic, word } from './build.ts';

t.test('no rule applies: no summaries', async (t) => {
  t.same(summarize(input({ input: hex('0x12345678') })), [], 'a contract call that moved nothing');
});

t.test('in order: creations, native transfers, mints, burns, transfers, approvals', async (t) => {
  const made = addr(0xc0de);
  const items = summarize(
    input(
      { to: null, createdContract: made },
      {
        tokenTransfers: [fungible(USD, ALICE, BOB, 1_000_000n), fungible(USD, ALICE, ZERO, 2_000_000n), fungible(USD, ZERO, ALICE, 3_000_000n)],
        logs: [rawLog(USD, [APPROVAL_TOPIC, topic(ALICE), topic(ROUTER)], word(4_000_000n))],
      },
    ),
  );
  t.same(items.map(said), [`Deploy contract ${made}`, `Mint 3 USD to ${ALICE}`, `Burn 2 USD from ${ALICE}`, `Transfer 1 USD to ${BOB}`, `Approve 4 USD for ${ROUTER}`]);
});

t.test(`at most ${MAX_SUMMARIES} summaries`, async (t) => {
  const many = Array.from({ length: 30 }, (_, i) => nft(PUNK, 'ERC-721', ZERO, BOB, [BigInt(i)]));
  const items = summarize(input({}, { tokenTransfers: many }));
  t.equal(items.length, MAX_SUMMARIES);
  t.same(said(items[0] ?? { template: '', variables: {} }), `Mint PUNK #0 to ${BOB}`, 'the first ones, in log order');
});
