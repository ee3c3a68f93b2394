import t from 'tap';
import type { AccountState, PrestateDiff } from '../../../lib/chain-source.ts';
import { encodeAbiParameters, parseAbiParameters } from 'viem';
import type { Address, ContractCodeRecord, Hash, Hex, LogRecord } from '../../../lib/domain/records.ts';
import { detectProxies, implementationOfCode, isSafeProxyCode } from '../../../lib/proxy/detect.ts';
import { DIAMOND_CUT_TOPIC, PROXY_SLOTS, UPGRADED_TOPIC } from '../../../lib/proxy/slots.ts';
import { EMPTY_HEX, hex } from '../../../lib/domain/hex.ts';

const addr = (n: number): Address => `0x${n.toString(16).padStart(40, '0')}` as Address;
const txHash = (n: number): Hash => `0x${n.toString(16).padStart(64, '0')}` as Hash;
const word = (a: Address): Hash => `0x${a.slice(2).padStart(64, '0')}` as Hash;
const ZERO_WORD = `0x${'0'.repeat(64)}` as Hash;
// the event topics as the records hold them (lib/proxy/slots.ts has them as plain literals)
const UPGRADED = hex(UPGRADED_TOPIC);
const DIAMOND_CUT = hex(DIAMOND_CUT_TOPIC);

const PROXY = addr(0xaaaa);
const IMPL_A = addr(0x1111);
const IMPL_B = addr(0x2222);

function diff(hash: Hash, pre: [Address, AccountState][], post: [Address, AccountState][]): PrestateDiff {
  return { transactionHash: hash, pre: new Map(pre), post: new Map(post) };
}
const storage = (entries: [Hash, Hash][]): Map<Hash, Hash> => new Map(entries);

function created(address: Address, code: Hex, index: number): ContractCodeRecord {
  return {
    address,
    blockNumber: 7,
    blockHash: txHash(0xb10c),
    transactionHash: txHash(index + 1),
    transactionIndex: index,
    timestamp: 1,
    creator: addr(0xc0de),
    deployedBytecode: code,
    creationBytecode: null,
  };
}

const clone = (impl: Address): Hex => `0x363d3d373d3d3d363d73${impl.slice(2)}5af43d82803e903d91602b57fd5bf3` as Hex;
const clone44 = (impl: Address): Hex => `0x3d3d3d3d363d3d37363d73${impl.slice(2)}5af43d3d93803e602a57fd5bf3` as Hex;
const SAFE_CODE = ('0x608060405273ffffffffffffffffffffffffffffffffffffffff600054167fa619486e0000000000000000000000000000000000000000000000000000000060003514156050578060005260206000f35b3660008037600080366000845af43d6000803e60008114156070573d6000fd5b3d6000f3fe' +
  'a2646970667358221220d1429297349653a4918076d650332de1a1068c5f3e07c5c82360c277770b955264736f6c63430007060033') as Hex;

t.test('bytecode resolvers: EIP-1167 and its 44-byte variant, EIP-7702, a short minimal proxy; others are not proxies', async (t) => {
  t.same(implementationOfCode(clone(IMPL_A)), { type: 'eip1167', implementation: IMPL_A });
  t.same(implementationOfCode(clone44(IMPL_B)), { type: 'eip1167', implementation: IMPL_B });
  t.same(implementationOfCode(`0xef0100${IMPL_A.slice(2)}` as Hex), { type: 'eip7702', implementation: IMPL_A });
  t.same(implementationOfCode(`0x6000${clone44(IMPL_B).slice(2)}00` as Hex), { type: 'minimal_proxy', implementation: IMPL_B });
  t.equal(implementationOfCode(`0x${'00'.repeat(100)}${clone44(IMPL_B).slice(2)}` as Hex), null, 'minimal proxies are at most 100 bytes');
  t.equal(implementationOfCode('0x6080604052' as Hex), null);
  t.ok(isSafeProxyCode(SAFE_CODE));
  t.notOk(isSafeProxyCode(clone(IMPL_A)));
});

t.test('storage writes: EIP-1967, upgrades, zeroing, each at its transaction', async (t) => {
  const records = detectProxies({
    blockNumber: 7,
    transactionHashes: [txHash(1), txHash(2), txHash(3)],
    diffs: [
      diff(txHash(1), [], [[PROXY, { storage: storage([[PROXY_SLOTS.eip1967, word(IMPL_A)]]) }]]),
      diff(txHash(2), [[PROXY, { storage: storage([[PROXY_SLOTS.eip1967, word(IMPL_A)]]) }]], [[PROXY, { storage: storage([[PROXY_SLOTS.eip1967, word(IMPL_B)]]) }]]),
      // diffMode leaves a slot set to zero out of post
      diff(txHash(3), [[PROXY, { storage: storage([[PROXY_SLOTS.eip1967, word(IMPL_B)]]) }]], [[PROXY, { nonce: 1 }]]),
    ],
    contractCodes: [],
  });
  t.same(
    records.map((r) => [r.transactionIndex, r.proxy, r.type, r.implementations, r.blockNumber]),
    [
      [0, PROXY, 'eip1967', [IMPL_A], 7],
      [1, PROXY, 'eip1967', [IMPL_B], 7],
      [2, PROXY, 'eip1967', [], 7],
    ],
  );
});

t.test('every slot kind; first in Blockscout order wins; the beacon is named; the proxy itself is dropped', async (t) => {
  const p = (n: number) => addr(0xbbb0 + n);
  const records = detectProxies({
    blockNumber: 3,
    transactionHashes: [txHash(1)],
    diffs: [
      diff(txHash(1), [], [
        [p(1), { storage: storage([[PROXY_SLOTS.eip1822, word(IMPL_A)]]) }],
        [p(2), { storage: storage([[PROXY_SLOTS.beacon, word(IMPL_B)]]) }],
        [p(3), { storage: storage([[PROXY_SLOTS.eip1967Oz, word(IMPL_A)]]) }],
        [p(4), { storage: storage([[PROXY_SLOTS.eip1967Oz, word(IMPL_A)], [PROXY_SLOTS.eip1967, word(IMPL_B)]]) }],
        [p(5), { storage: storage([[PROXY_SLOTS.eip1967, word(p(5))]]) }],
        [p(6), { storage: storage([[`0x${'0'.repeat(63)}1` as Hash, word(IMPL_A)]]) }],
      ]),
    ],
    contractCodes: [],
  });
  t.same(
    records.map((r) => [r.proxy, r.type, r.implementations, r.beacon]),
    [
      [p(1), 'eip1822', [IMPL_A], null],
      [p(2), 'eip1967_beacon', [], IMPL_B],
      [p(3), 'eip1967_oz', [IMPL_A], null],
      [p(4), 'eip1967', [IMPL_B], null],
      [p(5), 'eip1967', [], null],
    ],
  );
});

t.test("Safe's master copy: slot 0 counts only for Safe proxy code (created or in the diff)", async (t) => {
  const SAFE = addr(0x5afe);
  const OTHER = addr(0x0123);
  const OLD_SAFE = addr(0x5af0);
  const records = detectProxies({
    blockNumber: 9,
    transactionHashes: [txHash(1), txHash(2)],
    diffs: [
      diff(txHash(1), [], [
        [SAFE, { code: SAFE_CODE, storage: storage([['0x0' as Hash, word(IMPL_A)]]) }],
        [OTHER, { code: '0x6080' as Hex, storage: storage([[ZERO_WORD, word(IMPL_A)]]) }],
      ]),
      diff(txHash(2), [[OLD_SAFE, { code: SAFE_CODE, storage: storage([[ZERO_WORD, word(IMPL_A)]]) }]], [[OLD_SAFE, { storage: storage([[ZERO_WORD, word(IMPL_B)]]) }]]),
    ],
    contractCodes: [created(SAFE, SAFE_CODE, 0)],
  });
  t.same(
    records.map((r) => [r.transactionIndex, r.proxy, r.type, r.implementations]),
    [
      [0, SAFE, 'master_copy', [IMPL_A]],
      [1, OLD_SAFE, 'master_copy', [IMPL_B]],
    ],
  );
});

t.test('created code: clones; EIP-7702 delegation set and revoked through the diff', async (t) => {
  const CLONE = addr(0xc1);
  const EOA = addr(0xe0a);
  const records = detectProxies({
    blockNumber: 4,
    transactionHashes: [txHash(1), txHash(2), txHash(3)],
    diffs: [
      diff(txHash(2), [[EOA, { nonce: 1 }]], [[EOA, { nonce: 2, code: `0xef0100${IMPL_B.slice(2)}` as Hex }]]),
      diff(txHash(3), [[EOA, { code: `0xef0100${IMPL_B.slice(2)}` as Hex }]], [[EOA, { code: '0x' as Hex }]]),
    ],
    contractCodes: [created(CLONE, clone(IMPL_A), 0), created(addr(0xc2), '0x6080' as Hex, 0)],
  });
  t.same(
    records.map((r) => [r.transactionIndex, r.proxy, r.type, r.implementations]),
    [
      [0, CLONE, 'eip1167', [IMPL_A]],
      [1, EOA, 'eip7702', [IMPL_B]],
      [2, EOA, 'eip7702', []],
    ],
  );
});

t.test('no diffs (a node without prestateTracer): created code still counts', async (t) => {
  const records = detectProxies({ blockNumber: 1, transactionHashes: [txHash(1)], diffs: null, contractCodes: [created(addr(5), clone(IMPL_A), 0)] });
  t.equal(records.length, 1);
  t.equal(records[0]?.type, 'eip1167');
});

const log = (index: number, tx: number, address: Address, topics: Hex[], data: Hex = EMPTY_HEX): LogRecord => ({
  transactionHash: txHash(tx),
  blockHash: txHash(0xb10c),
  blockNumber: 5,
  transactionIndex: tx - 1,
  index,
  timestamp: 1,
  address,
  topics,
  data,
});
const cutData = (cuts: [Address, number, Hex[]][]): Hex => hex(encodeAbiParameters(parseAbiParameters('(address,uint8,bytes4[])[], address, bytes'), [cuts, addr(0), '0x']));

t.test('logs: a beacon’s Upgraded, unless the transaction wrote a proxy slot of the account; DiamondCuts merged per transaction', async (t) => {
  const BEACON = addr(0xbeac);
  const DIAMOND = addr(0xd1a0);
  const records = detectProxies({
    blockNumber: 5,
    transactionHashes: [txHash(1), txHash(2), txHash(3)],
    diffs: [diff(txHash(1), [], [[PROXY, { storage: storage([[PROXY_SLOTS.eip1967, word(IMPL_A)]]) }]])],
    contractCodes: [],
    logs: [
      log(0, 1, PROXY, [UPGRADED, word(IMPL_A)]),
      log(1, 1, BEACON, [UPGRADED, word(IMPL_A)]),
      log(2, 2, BEACON, [UPGRADED, word(IMPL_A)]),
      log(3, 2, BEACON, [UPGRADED, word(IMPL_B)]),
      log(4, 3, DIAMOND, [DIAMOND_CUT], cutData([[IMPL_A, 0, [hex('0x11111111'), hex('0x22222222')]]])),
      log(5, 3, DIAMOND, [DIAMOND_CUT], cutData([[IMPL_B, 1, [hex('0x22222222')]], [addr(0), 2, [hex('0x11111111')]]])),
      log(6, 3, addr(0xbad), [DIAMOND_CUT], hex('0x1234')),
      log(7, 3, addr(0xbad), [UPGRADED]),
    ],
  });
  t.same(
    records.map((r) => [r.proxy, r.type, r.implementations, r.transactionIndex, r.cuts?.map((c) => [c.facet, c.action, c.selectors])]),
    [
      [PROXY, 'eip1967', [IMPL_A], 0, undefined],
      [BEACON, 'basic_implementation', [IMPL_A], 0, undefined],
      [BEACON, 'basic_implementation', [IMPL_B], 1, undefined],
      [DIAMOND, 'eip2535', [IMPL_A, IMPL_B], 2, [[IMPL_A, 0, ['0x11111111', '0x22222222']], [IMPL_B, 1, ['0x22222222']], [addr(0), 2, ['0x11111111']]]],
    ],
    'the proxy’s own Upgraded gives way to its slot; the last Upgraded of a transaction wins; undecodable logs are left out',
  );
});
