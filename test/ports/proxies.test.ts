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

storeTest('getAddressViews: each address with its record (or none), its token type and whether it is a proxy, in one lookup', async (t, s) => {
  const b1 = block(1);
  const b2 = block(2);
  const x1 = tx(b1, 0);
  const x2 = tx(b2, 0);
  const T = addr(0x7e01); // a token with an address record
  const U = addr(0x7e02); // a token without one (created before the indexed range)
  const E = addr(0xe0a1); // an account with a record and nothing else
  await s.writeBlocks([
    bundle(b1, {
      transactions: [x1],
      addresses: [address(b1, P1, null), address(b1, T, 't'), address(b1, E, 'e')],
      tokens: [token(T, 'ERC-721'), token(U, 'ERC-20')],
      proxies: [change(x1, b1, P1, [I1])],
    }),
    // P2 has no address record (an EIP-7702 delegation, a proxy created before the range)
    bundle(b2, { transactions: [x2], proxies: [change(x2, b2, P2, [I2])] }),
  ]);
  const views = async () =>
    (await s.getAddressViews([P1, P2, T, U, E, addr(0x404), P1])).map((v) => `${v.hash.slice(-4)}:${v.record?.hash === v.hash ? (v.record.name ?? 'record') : '-'}:${String(v.proxied)}:${v.tokenType ?? '-'}`);
  t.same(await views(), ['9e01:record:true:-', '9e02:-:true:-', '7e01:t:false:ERC-721', '7e02:-:false:ERC-20', 'e0a1:e:false:-'], 'records, proxies and tokens, with or without a record; an unknown address absent; each once, in order');
  const many = [...Array.from({ length: 450 }, (_, i) => addr(0x10000 + i)), T, ...Array.from({ length: 450 }, (_, i) => addr(0x20000 + i)), P2];
  t.same((await s.getAddressViews(many)).map((v) => v.hash), [T, P2], 'a batch of 902 keys: the two known, in order');
  await s.rollbackAbove(1);
  t.same(await views(), ['9e01:record:true:-', '7e01:t:false:ERC-721', '7e02:-:false:ERC-20', 'e0a1:e:false:-'], "a rollback removes a proxy's only change: it is no longer known");
  await s.rollbackAbove(0);
  t.same(await views(), [], 'and everything with it');
  t.same(await s.getAddressViews([]), [], 'an empty batch');
});
