/**
 * Proxies' implementation history: getProxyHistory (batch, oldest first), idempotent writes,
 * non-consensus blocks, replacement of a block at a height and rollback (over every store).
 */
import type { Address, BlockRecord, ProxyRecord, TransactionRecord } from '../../lib/domain/records.ts';
import { addr, address, block, bundle, token, tx } from './records.ts';
import { storeTest } from './stores.ts';

const P1 = addr(0x9e01);
const P2 = addr(0x9e02);
const I1 = addr(0x1401);
const I2 = addr(0x1402);
const I3 = addr(0x1403);

function change(x: TransactionRecord, b: BlockRecord, proxy: Address, implementations: Address[], o: Partial<ProxyRecord> = {}): ProxyRecord {
  return { proxy, type: 'eip1967', implementations, beacon: null, blockNumber: b.number, transactionHash: x.hash, transactionIndex: x.index ?? 0, ...o };
}
const row = (r: ProxyRecord) => `${r.blockNumber}:${r.transactionIndex}:${r.proxy.slice(-4)}:${r.type}:${r.implementations.map((a) => a.slice(-4)).join('+')}:${r.beacon?.slice(-4) ?? ''}`;

storeTest('proxy history: batch lookup, idempotence, replacement, rollback', async (t, s) => {
  const b1 = block(1);
  const b2 = block(2);
  const b3 = block(3);
  const x1 = tx(b1, 0);
  const x2a = tx(b2, 0);
  const x2b = tx(b2, 1);
  const x3 = tx(b3, 0);
  const bundles = [
    bundle(b1, { transactions: [x1], proxies: [change(x1, b1, P1, [I1]), change(x1, b1, P2, [], { type: 'eip1967_beacon', beacon: I3 })] }),
    bundle(b2, { transactions: [x2a, x2b], proxies: [change(x2a, b2, P1, [I2]), change(x2b, b2, P1, [])] }),
    bundle(b3, { transactions: [x3], proxies: [change(x3, b3, P1, [I3], { type: 'eip1822' })] }),
  ];
  await s.writeBlocks(bundles);
  await s.writeBlocks(bundles.slice(1));
  t.same((await s.getProxyHistory([P1, P2, P1, addr(0x404)])).map(row), ['1:0:9e01:eip1967:1401:', '1:0:9e02:eip1967_beacon::1403', '2:0:9e01:eip1967:1402:', '2:1:9e01:eip1967::', '3:0:9e01:eip1822:1403:'], 'every change, oldest first; idempotent');
  t.same(await s.getProxyHistory([]), [], 'an empty batch');

  const b3r = block(3, { tag: 'r', consensus: false });
  const x3r = tx(b3r, 0, { tag: 'x3r' });
  await s.writeBlocks([bundle(b3r, { transactions: [x3r], proxies: [change(x3r, b3r, P2, [I1])] })]);
  t.same((await s.getProxyHistory([P2])).map(row), ['1:0:9e02:eip1967_beacon::1403'], 'a non-consensus block brings none');

  const b3b = block(3, { tag: 'b' });
  const x3b = tx(b3b, 0, { tag: 'x3b' });
  await s.writeBlocks([bundle(b3b, { transactions: [x3b], proxies: [change(x3b, b3b, P1, [I1, I2], { type: 'master_copy' })] })]);
  t.same((await s.getProxyHistory([P1])).map(row).slice(-1), ['3:0:9e01:master_copy:1401+1402:'], 'a replacing block replaces its changes');

  await s.rollbackAbove(1);
  t.same((await s.getProxyHistory([P1, P2])).map(row), ['1:0:9e01:eip1967:1401:', '1:0:9e02:eip1967_beacon::1403'], 'rollback removes the changes above');
  await s.rollbackAbove(0);
  t.same(await s.getProxyHistory([P1, P2]), [], 'and all of them');
});

storeTest('getAddresses: whether each address is a proxy and the type of its token, in the same lookup', async (t, s) => {
  const b1 = block(1);
  const b2 = block(2);
  const x1 = tx(b1, 0);
  const x2 = tx(b2, 0);
  const T = addr(0x7e01);
  await s.writeBlocks([
    bundle(b1, { transactions: [x1], addresses: [address(b1, P1, null), address(b1, P2, null), address(b1, T, null)], tokens: [token(T, 'ERC-721')], proxies: [change(x1, b1, P1, [I1])] }),
    bundle(b2, { transactions: [x2], proxies: [change(x2, b2, P2, [I2])] }),
  ]);
  const facts = async () => (await s.getAddresses([P1, P2, T, addr(0x404)])).map((a) => `${a.hash.slice(-4)}:${String(a.proxied)}:${a.tokenType ?? '-'}`);
  t.same(await facts(), ['9e01:true:-', '9e02:true:-', '7e01:false:ERC-721'], 'proxies and a token; an unknown address absent');
  await s.rollbackAbove(1);
  t.same(await facts(), ['9e01:true:-', '9e02:false:-', '7e01:false:ERC-721'], "a rollback removes a proxy's only change: no longer a proxy");
  await s.rollbackAbove(0);
  t.same(await facts(), [], 'and the addresses with it');
});
