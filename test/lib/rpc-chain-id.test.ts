/**
 * The `chainId` of a JSON-RPC transaction, as a node reports it: a typed transaction's is the
 * chain served; a legacy one's comes from its EIP-155 `v` (none before EIP-155, nor without a
 * stored signature).
 */
import t from 'tap';
import { buildFixtureChain } from '../../fixture/index.ts';
import { renderTransaction } from '../../lib/rpc/format.ts';
import type { TransactionRecord } from '../../lib/domain/records.ts';
import { hex } from '../../lib/domain/hex.ts';

const all = buildFixtureChain().bundles.flatMap((b) => b.transactions);
const typed = all.find((tx) => tx.type !== null && tx.type > 0);
const base = all[0];
if (typed === undefined || base === undefined) throw new Error('the fixture has transactions');
const signature = { r: hex(`0x${'11'.repeat(32)}`), s: hex(`0x${'22'.repeat(32)}`), yParity: null } as const;
const legacy = (v: bigint | undefined): TransactionRecord => {
  const { signature: _dropped, ...rest } = base;
  return { ...rest, type: 0, ...(v === undefined ? {} : { signature: { ...signature, v } }) };
};

t.equal(renderTransaction(typed, '31337').chainId, '0x7a69', 'typed: the chain served');
t.equal(renderTransaction(legacy(31337n * 2n + 35n), '1').chainId, '0x7a69', 'legacy EIP-155 (v = 2·id + 35): from v, whatever the chain served');
t.equal(renderTransaction(legacy(31337n * 2n + 36n), '31337').chainId, '0x7a69', 'legacy EIP-155 (v = 2·id + 36)');
t.equal(renderTransaction(legacy(1n * 2n + 35n), '31337').chainId, '0x1', 'legacy, signed for chain 1');
t.equal(renderTransaction(legacy(27n), '31337').chainId, undefined, 'before EIP-155 (v 27): none');
t.equal(renderTransaction(legacy(28n), '31337').chainId, undefined, 'before EIP-155 (v 28): none');
t.equal(renderTransaction(legacy(undefined), '31337').chainId, undefined, 'no stored signature: none');
