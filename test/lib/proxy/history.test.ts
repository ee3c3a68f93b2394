import t from 'tap';
import type { Address, FacetCut, Hash, ProxyRecord } from '../../../lib/domain/records.ts';
import { resolveProxy } from '../../../lib/proxy/history.ts';
import { hex } from '../../../lib/domain/hex.ts';

const addr = (n: number): Address => `0x${n.toString(16).padStart(40, '0')}` as Address;
const at = (block: number, index: number) => ({ blockNumber: block, transactionIndex: index, transactionHash: `0x${(block * 100 + index).toString(16).padStart(64, '0')}` as Hash });
const PROXY = addr(0xaaaa);
const BEACON = addr(0xbeac);
const DIAMOND = addr(0xd1a0);
const [A, B, C] = [addr(0x1111), addr(0x2222), addr(0x3333)];

const histories = (records: ProxyRecord[]): Map<Address, ProxyRecord[]> => {
  const out = new Map<Address, ProxyRecord[]>();
  for (const r of records) out.set(r.proxy, [...(out.get(r.proxy) ?? []), r]);
  return out;
};

t.test('a beacon proxy: the beacon’s implementation in force at each point', async (t) => {
  const h = histories([
    { proxy: BEACON, type: 'basic_implementation', implementations: [A], beacon: null, ...at(1, 0) },
    { proxy: PROXY, type: 'eip1967_beacon', implementations: [], beacon: BEACON, ...at(2, 0) },
    { proxy: BEACON, type: 'basic_implementation', implementations: [B], beacon: null, ...at(4, 1) },
  ]);
  t.equal(resolveProxy(h, PROXY, 1), null, 'no proxy before its deployment');
  t.same(resolveProxy(h, PROXY, 3)?.implementations, [A], 'the first implementation before the upgrade');
  t.same(resolveProxy(h, PROXY, 4, 0)?.implementations, [A], 'still the first just before the upgrade’s transaction');
  t.same(resolveProxy(h, PROXY, 4, 1)?.implementations, [B], 'the second from the upgrade on');
  t.same([resolveProxy(h, PROXY)?.type, resolveProxy(h, PROXY)?.implementations], ['eip1967_beacon', [B]], 'now');
  const unknown = histories([{ proxy: PROXY, type: 'eip1967_beacon', implementations: [], beacon: BEACON, ...at(2, 0) }]);
  t.same(resolveProxy(unknown, PROXY)?.implementations, [], 'a beacon never seen: a beacon proxy with no implementation');
});

t.test('a diamond: every cut up to the point folded, selectors routed to their facets', async (t) => {
  const cut = (block: number, cuts: FacetCut[]): ProxyRecord => ({ proxy: DIAMOND, type: 'eip2535', implementations: [], beacon: null, cuts, ...at(block, 0) });
  const h = histories([
    cut(1, [{ facet: A, action: 0, selectors: [hex('0x00000001'), hex('0x00000002')] }, { facet: B, action: 0, selectors: [hex('0x00000003')] }]),
    cut(2, [{ facet: C, action: 1, selectors: [hex('0x00000001')] }]),
    cut(3, [{ facet: addr(0), action: 2, selectors: [hex('0x00000002'), hex('0x00000003')] }]),
    cut(4, [{ facet: addr(0), action: 2, selectors: [hex('0x00000001')] }]),
  ]);
  const at1 = resolveProxy(h, DIAMOND, 1);
  t.same([at1?.implementations, [...(at1?.routes ?? [])]], [[A, B], [['0x00000001', A], ['0x00000002', A], ['0x00000003', B]]]);
  t.same(resolveProxy(h, DIAMOND, 2)?.implementations, [A, B, C], 'a replaced selector moves to its new facet (facets in the order first added)');
  t.same(resolveProxy(h, DIAMOND, 3)?.implementations, [C], 'removed selectors leave their facets out');
  t.equal(resolveProxy(h, DIAMOND, 4), null, 'no selector left: no proxy');
});
