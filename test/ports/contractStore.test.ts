/**
 * The contract store port over every store (memory, SQLite, Postgres; SCOUTKIT_STORES): verified
 * contracts saved and read back field for field, keyed by code hash (a full match replaces a
 * partial one, nothing else replaces), listed and counted with filters and paging, jobs created
 * once per address and input and settled, the data version moving with saves, and
 * verifications outside block rollback (a reorg re-creating the same code keeps it verified).
 */
import type { Address, ContractCodeRecord, Hash, Hex } from '../../lib/domain/records.ts';
import { codeHashOf } from '../../lib/contracts/codeHash.ts';
import { hex } from '../../lib/domain/hex.ts';
import { verifiedByAddress } from '../../lib/contracts/lookup.ts';
import { addr, block, bundle, tx } from './records.ts';
import { storeTest } from './stores.ts';
import { codeHash, contractStoreBeside, verified } from '../support/contracts.ts';

const X = addr(0x1001);
const Y = addr(0x1002);
const Z = addr(0x1003);

storeTest('contract store: verified contracts by code hash', async (t, s) => {
  const cs = contractStoreBeside(s);
  t.same(await cs.getVerified([]), [], 'no hashes: none');
  t.same(await cs.getVerified([codeHash(1)]), [], 'an unknown hash: none');
  const v0 = await cs.getDataVersion?.();

  const first = verified({ codeHash: codeHash(1), address: X, libraries: { 'src/Lib.sol:Lib': Z }, constructorArguments: '0x00ff' as Hex, hasImmutables: true });
  const saved = await cs.saveVerified(first);
  t.ok(saved.saved, 'a new code hash is saved');
  t.same(saved.contract, { ...first, id: saved.contract.id }, 'every field as given, and an id');
  t.ok(Number.isInteger(saved.contract.id) && saved.contract.id > 0, 'a positive integer id');
  t.not(await cs.getDataVersion?.(), v0, 'the data version moved');
  t.equal(cs.dataVersionSignal?.local(), 1, 'and the local signal');

  const again = await cs.saveVerified(verified({ codeHash: codeHash(1), address: Y, name: 'Other' }));
  t.notOk(again.saved, 'a full match over a full match: kept');
  t.same(again.contract, saved.contract, 'the stored contract unchanged');
  t.equal(cs.dataVersionSignal?.local(), 1, 'nothing written: the signal stays');

  const partial = await cs.saveVerified(verified({ codeHash: codeHash(2), address: Y, match: 'partial', name: 'Half', verifiedAt: 1_000 }));
  t.ok(partial.saved && partial.contract.match === 'partial', 'a partial match is saved');
  t.notOk((await cs.saveVerified(verified({ codeHash: codeHash(2), address: Y, match: 'partial', name: 'Half2' }))).saved, 'a partial over a partial: kept');
  const full = await cs.saveVerified(verified({ codeHash: codeHash(2), address: Z, match: 'full', name: 'Whole', verifiedAt: 2_000 }));
  t.ok(full.saved, 'a full match replaces a partial one');
  t.same([full.contract.id, full.contract.address, full.contract.name, full.contract.match, full.contract.verifiedAt], [partial.contract.id, Y, 'Whole', 'full', 2_000], 'its id and first address stay, the rest is the new one');
  t.notOk((await cs.saveVerified(verified({ codeHash: codeHash(2), address: Y, match: 'partial' }))).saved, 'a partial over a full: kept');

  const got = await cs.getVerified([codeHash(2), codeHash(1), codeHash(1), codeHash(9), codeHash(2).toUpperCase().replace('0X', '0x') as Hash]);
  t.same(got.map((c) => c.name).sort(), ['Token', 'Whole'], 'a batch: each known hash once (any case), unknown ones left out');
});

storeTest('contract store: lists, filters, counts', async (t, s) => {
  const cs = contractStoreBeside(s);
  const rows = [
    verified({ codeHash: codeHash(11), address: addr(0xaa01), name: 'AlphaToken', language: 'solidity', verifiedAt: 1_000 }),
    verified({ codeHash: codeHash(12), address: addr(0xbb02), name: 'beta_vault', language: 'vyper', verifiedAt: 2_000 }),
    verified({ codeHash: codeHash(13), address: addr(0xcc03), name: 'Gamma%', language: 'yul', verifiedAt: 3_000 }),
    verified({ codeHash: codeHash(14), address: addr(0xdd04), name: 'BetaXvault', language: 'solidity', verifiedAt: 4_000 }),
  ];
  const ids: number[] = [];
  for (const r of rows) ids.push((await cs.saveVerified(r)).contract.id);
  t.ok(ids.every((id, i) => i === 0 || id > (ids[i - 1] as number)), 'ids grow in save order');

  const names = async (filter: Parameters<typeof cs.listVerified>[0], order: 'asc' | 'desc' = 'desc', afterId: number | null = null, limit = 10) =>
    (await cs.listVerified(filter, { afterId, limit, order })).map((c) => c.name);
  t.same(await names({}), ['BetaXvault', 'Gamma%', 'beta_vault', 'AlphaToken'], 'newest first');
  t.same(await names({}, 'asc'), ['AlphaToken', 'beta_vault', 'Gamma%', 'BetaXvault'], 'oldest first');
  t.same(await names({}, 'desc', ids[2] as number, 1), ['beta_vault'], 'after an id, limited');
  t.same(await names({}, 'asc', ids[1] as number), ['Gamma%', 'BetaXvault'], 'after an id, ascending');
  t.same(await names({ language: 'solidity' }), ['BetaXvault', 'AlphaToken'], 'by language');
  t.same(await names({ q: 'BETA' }), ['BetaXvault', 'beta_vault'], 'q: a name substring, any case');
  t.same(await names({ q: 'a_v' }), ['beta_vault'], 'q: _ is a literal');
  t.same(await names({ q: 'a%' }), ['Gamma%'], 'q: % is a literal');
  t.same(await names({ q: '0xcc0' }), [], 'q: address text is lower-case hex without the leading zeros gap');
  t.same(await names({ q: 'dd04' }), ['BetaXvault'], 'q: a substring of the address');
  t.same(await names({ q: '   ' }), ['BetaXvault', 'Gamma%', 'beta_vault', 'AlphaToken'], 'a blank q: no filter');
  t.same(await names({ verifiedSince: 2_000, verifiedUntil: 3_000 }), ['Gamma%', 'beta_vault'], 'a verification time window (inclusive)');
  t.equal(await cs.countVerified({}), 4, 'count: all');
  t.equal(await cs.countVerified({ language: 'vyper' }), 1, 'count: by language');
  t.equal(await cs.countVerified({ q: 'beta' }), 2, 'count: by q');
  t.equal(await cs.countVerified({ verifiedSince: 3_500 }), 1, 'count: since');
});

storeTest('contract store: verification jobs', async (t, s) => {
  const cs = contractStoreBeside(s);
  const input = codeHash(0x51);
  t.equal(await cs.getJob('nope'), null, 'an unknown uid: null');
  t.equal(await cs.findJob(X, input), null, 'no job yet');
  const a = await cs.createJob({ uid: 'uid-a', address: X, inputHash: input, inputKind: 'standard-input', now: 1_000 });
  t.same(a, { created: true, job: { uid: 'uid-a', address: X, inputHash: input, inputKind: 'standard-input', state: 'pending', message: null, createdAt: 1_000, updatedAt: 1_000 } }, 'created pending');
  const b = await cs.createJob({ uid: 'uid-b', address: X.toUpperCase().replace('0X', '0x') as Address, inputHash: input, inputKind: 'flattened-code', now: 2_000 });
  t.same([b.created, b.job.uid], [false, 'uid-a'], 'the same address and input: the first job, nothing created');
  t.equal(await cs.getJob('uid-b'), null, 'the second uid was never stored');
  const c = await cs.createJob({ uid: 'uid-c', address: X, inputHash: codeHash(0x52), inputKind: 'etherscan-single-file', now: 3_000 });
  t.ok(c.created, 'another input: a job of its own');
  t.ok(await cs.updateJob('uid-a', { state: 'fail', message: 'Bytecode does not match', now: 4_000 }), 'settled');
  t.same(await cs.getJob('uid-a'), { uid: 'uid-a', address: X, inputHash: input, inputKind: 'standard-input', state: 'fail', message: 'Bytecode does not match', createdAt: 1_000, updatedAt: 4_000 }, 'read back settled');
  t.same((await cs.findJob(X, input))?.state, 'fail', 'found by address and input');
  t.notOk(await cs.updateJob('uid-z', { state: 'pass', message: null, now: 5_000 }), 'an unknown uid: false');
  const repeat = await cs.createJob({ uid: 'uid-d', address: X, inputHash: input, inputKind: 'standard-input', now: 6_000 });
  t.same([repeat.created, repeat.job.uid, repeat.job.state], [false, 'uid-a', 'fail'], 'a settled job still answers the same submission');
});

storeTest('contract store: outside block rollback', async (t, s) => {
  const cs = contractStoreBeside(s);
  const b1 = block(1);
  const creation = tx(b1, 0);
  const deployed = '0x6080604052600a600c' as Hex;
  const code: ContractCodeRecord = {
    address: X,
    blockNumber: 1,
    blockHash: b1.hash,
    transactionHash: creation.hash,
    transactionIndex: 0,
    timestamp: b1.timestamp,
    creator: Y,
    deployedBytecode: deployed,
    creationBytecode: hex('0x6000'),
  };
  await s.writeBlocks([bundle(block(0), {}), bundle(b1, { transactions: [creation], contractCodes: [code] })]);
  const hash = codeHashOf(deployed) as Hash;
  await cs.saveVerified(verified({ codeHash: hash, address: X }));
  t.same([...(await verifiedByAddress(s, cs, [X, Y])).entries()].map(([a, v]) => [a, v.own, v.contract.codeHash]), [[X, true, hash]], 'verified at its address by the hash of its code');
  await s.rollbackAbove(0);
  t.equal((await verifiedByAddress(s, cs, [X])).size, 0, 'rolled back: the indexer knows no contract there');
  t.equal((await cs.getVerified([hash])).length, 1, 'the verification stays');
  const b1b = block(1, { tag: 'b' });
  const again = tx(b1b, 0);
  await s.writeBlocks([bundle(b1b, { transactions: [again], contractCodes: [{ ...code, blockHash: b1b.hash, transactionHash: again.hash }] })]);
  t.equal((await verifiedByAddress(s, cs, [X])).get(X)?.own, true, 'the same code re-created by another block: verified again');
});
