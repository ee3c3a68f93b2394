/**
 * `verification_result` from the contract store's feed (lib/live/verification.ts, the hub's
 * `contracts` option), on the reference stores: a job settled is an event on `addresses:{h}` —
 * success, or the failure under `contract_source_code` (code sent in a form field) or `files`
 * (uploads, and jobs recorded without a kind) — while a pending job, a proxy check and a
 * verified contract saved are none; nothing once the last subscriber has left.
 */
import t from 'tap';
import { createMemoryContractStore, createMemoryStore } from '../../../adapters/memory/index.ts';
import type { Address, Hash, JobInputKind, LiveEvent } from '../../../lib/index.ts';
import { createLiveHub } from '../../../lib/index.ts';
import { codeHash, verified } from '../../support/contracts.ts';

const X = '0x00000000000000000000000000000000000000c1' as Address;

const settle = async (ok: () => boolean): Promise<void> => {
  for (let i = 0; i < 500 && !ok(); i++) await new Promise((r) => setTimeout(r, 10));
};

t.test('a settled job is verification_result on addresses:{h}', async (t) => {
  const store = createMemoryStore();
  const contracts = createMemoryContractStore();
  const hub = createLiveHub(store, store.feed, { ipfsGateway: 'https://ipfs.io/ipfs/' }, undefined, { ...(contracts.feed === undefined ? {} : { contracts: contracts.feed }) });
  const events: LiveEvent[] = [];
  const stop = hub.subscribe(`addresses:${X}`, (e) => events.push(e));
  let n = 0;
  const job = async (inputKind: JobInputKind | undefined, state: 'pass' | 'fail' | 'pending', message: string | null): Promise<void> => {
    const uid = `u${++n}`;
    await contracts.createJob({ uid, address: X, inputHash: `0x${String(n).padStart(64, '0')}` as Hash, ...(inputKind === undefined ? {} : { inputKind }), now: n });
    await contracts.updateJob(uid, { state, message, now: n + 1 });
  };
  await job('standard-input', 'pass', null);
  await job('flattened-code', 'fail', 'Fail - Unable to verify: Bytecode does not match');
  await job('multi-part', 'fail', 'Fail - Unable to verify: no');
  await job(undefined, 'fail', 'Fail - Unable to verify: old');
  await job('proxy-check', 'pass', null);
  await job('etherscan-single-file', 'pending', null);
  await contracts.saveVerified(verified({ codeHash: codeHash(7), address: X }));
  await settle(() => events.length >= 4);
  await new Promise((r) => setTimeout(r, 50));
  t.same(
    events.map((e) => [e.event, e.payload]),
    [
      ['verification_result', { status: 'success' }],
      ['verification_result', { status: 'error', errors: { contract_source_code: ['Unable to verify: Bytecode does not match'] } }],
      ['verification_result', { status: 'error', errors: { files: ['Unable to verify: no'] } }],
      ['verification_result', { status: 'error', errors: { files: ['Unable to verify: old'] } }],
    ],
    'success, then each failure under its field; no event for a pending job, a proxy check or a save',
  );
  stop();
  await job('standard-input', 'pass', null);
  await new Promise((r) => setTimeout(r, 50));
  t.equal(events.length, 4, 'nothing once unsubscribed');
});
