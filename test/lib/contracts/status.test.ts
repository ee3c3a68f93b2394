/**
 * A verification job's status, held while it is pending, over every store (SCOUTKIT_STORES):
 * `verificationStatus` answers at once by default; with `waitMs` it reads the job again until it
 * settles (also when another process settles it: it reads the store) or the time is up. And
 * Etherscan's `checkverifystatus`, asked right after `verifysourcecode` (as forge asks, before
 * waiting 15 s), answers the job's final state once it settles within STATUS_WAIT_MS.
 */
import t from 'tap';
import { createExplorer, STATUS_WAIT_MS, toJson, verificationStatus } from '../../../lib/index.ts';
import type { ChainConfig, ContractVerifier } from '../../../lib/index.ts';
import type { Hash } from '../../../lib/domain/records.ts';
import { contractStoreBeside } from '../../support/contracts.ts';
import { storeFactories } from '../../support/stores.ts';
import { compilerVersion, ODD_ADDRESS, TOKEN_INPUT, writeVerifiableChain } from '../../support/verification.ts';

const VERSION = compilerVersion();
const hash = (n: number): Hash => `0x${n.toString(16).padStart(64, '0')}` as Hash;
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** A verifier that takes `ms` to find that the code does not match. */
const slowMismatch = (ms: number): ContractVerifier => ({
  verify: async () => {
    await sleep(ms);
    return { status: 'failed', reason: 'mismatch', message: 'Fail - Unable to verify: the compiled code does not match the deployed code' };
  },
  close: async () => {},
});

for (const factory of await storeFactories()) {
  await t.test(factory.name, async (t) => {
    const store = await factory.open();
    t.teardown(() => store.close());
    await writeVerifiableChain(store);
    const contracts = contractStoreBeside(store);

    await t.test('verificationStatus: at once, or held while pending', async (t) => {
      const chain = { contracts };
      const { job } = await contracts.createJob({ uid: 'a1', address: ODD_ADDRESS, inputHash: hash(1), inputKind: 'flattened-code', now: Date.now() });
      t.equal(job.state, 'pending');

      // reads of the job, counted: "at once" is one read, "held" is reads until it settles (no clock in the checks)
      let reads = 0;
      const counted = { contracts: { ...contracts, getJob: (uid: string) => (reads++, contracts.getJob(uid)) } };
      t.match(await verificationStatus(counted, 'a1'), { kind: 'job', job: { state: 'pending' } }, 'by default: at once, pending');
      t.equal(reads, 1, 'at once: one read, no wait by default');

      let startedAt = Date.now();
      t.match(await verificationStatus(chain, 'a1', { waitMs: 300, pollMs: 20 }), { kind: 'job', job: { state: 'pending' } }, 'never settled: pending');
      t.ok(Date.now() - startedAt >= 300, 'after waitMs');

      // settled meanwhile through another contract store over the same data (another host, for SQL),
      // once the held status has read it pending three times
      const other = factory.name === 'memory' ? contracts : contractStoreBeside(store);
      reads = 0;
      let settledAt = -1;
      const settling = {
        contracts: {
          ...contracts,
          getJob: async (uid: string) => {
            const job = await contracts.getJob(uid);
            if (++reads === 3) {
              await other.updateJob('a1', { state: 'pass', message: null, now: Date.now() });
              settledAt = reads;
            }
            return job;
          },
        },
      };
      startedAt = Date.now();
      const waitMs = 120_000;
      t.match(await verificationStatus(settling, 'a1', { waitMs, pollMs: 20 }), { kind: 'job', job: { state: 'pass' } }, 'settled while held: its final state');
      t.equal(reads, settledAt + 1, 'answered at the first read after it settled');
      t.ok(Date.now() - startedAt < waitMs, 'not after waitMs');

      t.same(await verificationStatus(chain, 'nope', { waitMs: 5000 }), { kind: 'unknown' }, 'an unknown uid: at once');
    });

    await t.test('checkverifystatus right after verifysourcecode: the final state, once settled', async (t) => {
      const chain: ChainConfig = { store, contracts, verifier: slowMismatch(400) };
      const ex = createExplorer({ chains: { '1': chain } });
      const scan = async (query: Record<string, string>): Promise<Record<string, unknown>> =>
        JSON.parse(toJson((await ex.handle({ path: '/api', query })).body)) as Record<string, unknown>;
      const submitted = await scan({
        module: 'contract',
        action: 'verifysourcecode',
        codeformat: 'solidity-standard-json-input',
        contractaddress: ODD_ADDRESS,
        sourceCode: TOKEN_INPUT,
        contractname: 'src/Token.sol:Token',
        compilerversion: VERSION,
      });
      t.equal(submitted['status'], '1', 'a GUID');
      const startedAt = Date.now();
      const status = await scan({ module: 'contract', action: 'checkverifystatus', guid: submitted['result'] as string });
      const held = Date.now() - startedAt;
      t.match(status, { status: '1', message: 'OK', result: 'Fail - Unable to verify', reason: /does not match/ }, 'the first answer is final (no "Pending in queue")');
      // held until the job settled: a pending job's answer within STATUS_WAIT_MS would be "Pending in queue"
      t.comment(`held ${held} ms (at most STATUS_WAIT_MS, ${STATUS_WAIT_MS} ms)`);
    });
  });
}
