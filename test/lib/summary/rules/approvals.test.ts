/** The approval rule: Approval and ApprovalForAll logs whose owner is the actor. */
import t from 'tap';
import { APPROVAL_FOR_ALL_TOPIC, APPROVAL_TOPIC, approvals } from '../../../../lib/summary/rules/approvals.ts';
import { EMPTY_HEX } from '../../../../lib/domain/hex.ts';
import { ALICE, BOB, PUNK, ROUTER, TOKENS, USD, ZERO, rawLog, said, topic, word } from '../build.ts';

const erc20 = (owner: typeof ALICE, spender: typeof ALICE, value: bigint) => rawLog(USD, [APPROVAL_TOPIC, topic(owner), topic(spender)], word(value));

t.test('ERC-20: an amount, unlimited, a revocation', async (t) => {
  t.same(approvals([erc20(ALICE, ROUTER, 2_000_000n)], TOKENS, ALICE).map(said), [`Approve 2 USD for ${ROUTER}`]);
  t.same(approvals([erc20(ALICE, ROUTER, 2n ** 256n - 1n)], TOKENS, ALICE).map(said), [`Approve unlimited USD for ${ROUTER}`]);
  t.same(approvals([erc20(ALICE, ROUTER, 0n)], TOKENS, ALICE).map(said), [`Revoke USD approval for ${ROUTER}`]);
});

t.test("another owner's approval (an allowance spent by transferFrom) is not the actor's", async (t) => {
  t.same(approvals([erc20(BOB, ALICE, 5n)], TOKENS, ALICE), []);
});

t.test('ERC-721: one token approved, then revoked', async (t) => {
  const approve = rawLog(PUNK, [APPROVAL_TOPIC, topic(ALICE), topic(BOB), word(42n)]);
  const revoke = rawLog(PUNK, [APPROVAL_TOPIC, topic(ALICE), topic(ZERO), word(42n)]);
  t.same(approvals([approve, revoke], TOKENS, ALICE).map(said), [`Approve PUNK #42 for ${BOB}`, 'Revoke PUNK #42 approval']);
});

t.test('ApprovalForAll: every token, approved or revoked', async (t) => {
  const on = rawLog(PUNK, [APPROVAL_FOR_ALL_TOPIC, topic(ALICE), topic(ROUTER)], word(1n));
  const off = rawLog(PUNK, [APPROVAL_FOR_ALL_TOPIC, topic(ALICE), topic(ROUTER)], word(0n));
  t.same(approvals([on, off], TOKENS, ALICE).map(said), [`Approve all PUNK for ${ROUTER}`, `Revoke all PUNK for ${ROUTER}`]);
});

t.test('logs of other shapes are skipped', async (t) => {
  t.same(approvals([rawLog(USD, [APPROVAL_TOPIC, topic(ALICE), topic(BOB)], EMPTY_HEX)], TOKENS, ALICE), [], 'no value word');
  t.same(approvals([rawLog(USD, [APPROVAL_TOPIC, topic(ALICE)], word(1n))], TOKENS, ALICE), [], 'no spender topic');
  t.same(approvals([rawLog(USD, [word(7n), topic(ALICE), topic(BOB)], word(1n))], TOKENS, ALICE), [], 'another event');
});
