/**
 * The contract store's change feed over every store (SCOUTKIT_STORES): each save that changed
 * something and each job update is one change, versions consecutive, delivered once in order to
 * this object's subscribers and replayed by `since`; a save that kept the stored contract and an
 * unknown uid change nothing. On SQL stores, a second contract store over the same database (as
 * another process's) hears the first one's changes from the log, in the same order. Jobs record
 * what they were submitted as; one recorded without a kind reads null.
 */
import type { Test } from 'tap';
import type { ContractChange, ContractStore } from '../../lib/contracts/store.ts';
import { createSqlContractStore } from '../../adapters/sql/index.ts';
import type { SqlStore } from '../../adapters/sql/index.ts';
import { addr } from './records.ts';
import { storeTest } from './stores.ts';
import { codeHash, contractStoreBeside, verified } from '../support/contracts.ts';

const X = addr(0x2001);
const Y = addr(0x2002);

const until = async (what: string, ok: () => boolean, ms = 20_000): Promise<void> => {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) throw new Error(`waited in vain for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
};

/** the writes every store is put through, and the changes they must make (versions left out) */
async function writes(cs: ContractStore): Promise<void> {
  await cs.saveVerified(verified({ codeHash: codeHash(1), address: X }));
  await cs.saveVerified(verified({ codeHash: codeHash(1), address: Y, name: 'Again' })); // kept: no change
  await cs.saveVerified(verified({ codeHash: codeHash(2), address: Y, match: 'partial' }));
  await cs.saveVerified(verified({ codeHash: codeHash(2), address: X, match: 'full' })); // over the partial: its first address stays
  await cs.createJob({ uid: 'j1', address: X, inputHash: codeHash(0x51), inputKind: 'multi-part', now: 1_000 });
  await cs.updateJob('j1', { state: 'fail', message: 'Fail - Unable to verify: no', now: 2_000 });
  await cs.updateJob('nope', { state: 'pass', message: null, now: 3_000 }); // unknown: no change
  await cs.updateJob('j1', { state: 'pass', message: null, now: 4_000 });
}

const EXPECTED = [
  { kind: 'verified', codeHash: codeHash(1), address: X },
  { kind: 'verified', codeHash: codeHash(2), address: Y },
  { kind: 'verified', codeHash: codeHash(2), address: Y },
  { kind: 'job', job: { uid: 'j1', address: X, state: 'fail', message: 'Fail - Unable to verify: no', inputKind: 'multi-part' } },
  { kind: 'job', job: { uid: 'j1', address: X, state: 'pass', message: null, inputKind: 'multi-part' } },
];

const withoutVersion = (changes: readonly ContractChange[]): unknown[] => changes.map(({ version: _v, ...rest }) => rest);

function consecutive(t: Test, changes: readonly ContractChange[], what: string): void {
  const versions = changes.map((c) => c.version);
  const first = versions[0] ?? 0;
  t.same(versions, versions.map((_, i) => first + i), `${what}: versions consecutive (${versions.join(', ')})`);
}

storeTest('contract feed: each change once, in order, replayed by since', async (t, s) => {
  const cs = contractStoreBeside(s);
  const feed = cs.feed;
  if (feed === undefined) throw new Error('every store has a contract feed');
  const before = await feed.since(0);
  t.same(before, [], 'nothing changed yet: since(0) is empty');
  const heard: ContractChange[] = [];
  const stop = feed.subscribe((c) => void heard.push(c));
  await writes(cs);
  await until('five changes', () => heard.length >= EXPECTED.length);
  t.same(withoutVersion(heard), EXPECTED, 'saved, replaced, job settled twice: each once; kept saves and unknown uids change nothing');
  consecutive(t, heard, 'heard');
  t.same(await feed.since(0), heard, 'since(0): the same changes');
  const third = heard[2] as ContractChange;
  t.same(await feed.since(third.version), heard.slice(3), 'since a version: the changes after it');
  stop();
  await cs.createJob({ uid: 'j2', address: Y, inputHash: codeHash(0x52), now: 5_000 });
  await cs.updateJob('j2', { state: 'fail', message: 'x', now: 6_000 });
  t.equal(heard.length, EXPECTED.length, 'unsubscribed: nothing more heard');
  t.equal((await cs.getJob('j2'))?.inputKind, null, 'a job recorded without a kind reads null');
  t.equal((await cs.getJob('j1'))?.inputKind, 'multi-part', 'a job reads its kind back');
});

storeTest('contract feed: another process on the same database hears every change (SQL)', async (t, s) => {
  if (!('knex' in s)) {
    t.pass('memory: one process only');
    return;
  }
  const sql = s as unknown as SqlStore;
  const writer = contractStoreBeside(s);
  // another process's contract store: its own object and feed over the same database
  const other = createSqlContractStore({ knex: sql.knex, reader: sql.reader }, { pollMs: 20 });
  t.teardown(() => other.close());
  const heard: ContractChange[] = [];
  const stop = other.feed.subscribe((c) => void heard.push(c));
  t.teardown(stop);
  // the subscription starts once it has read where the log is (a change before that is not "from now on"):
  // a sentinel job is updated until the other store hears it
  await writer.createJob({ uid: 'j0', address: Y, inputHash: codeHash(0x50), inputKind: 'standard-input', now: 0 });
  for (let n = 1; heard.length === 0; n++) {
    await writer.updateJob('j0', { state: 'pending', message: null, now: n });
    await new Promise((r) => setTimeout(r, 50));
  }
  const sentinels = (): number => heard.filter((c) => c.kind === 'job' && c.job.uid === 'j0').length;
  const sent = (await writer.feed?.since(0))?.length ?? 0;
  await writes(writer);
  await until('the other store hears five changes', () => sentinels() >= sent && heard.length - sentinels() >= EXPECTED.length);
  const mine = heard.filter((c) => !(c.kind === 'job' && c.job.uid === 'j0'));
  t.same(withoutVersion(mine), EXPECTED, 'the same changes, in the same order');
  consecutive(t, mine, 'heard by the other');
  t.equal(sentinels(), sent, 'and every sentinel update once');
  t.equal(await other.getDataVersion?.(), await writer.getDataVersion?.(), 'both read the same data version');
  t.same((await other.getVerified([codeHash(2)])).map((c) => c.address), [Y], 'and the contract saved by the first');
});
