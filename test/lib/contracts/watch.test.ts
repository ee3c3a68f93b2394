// The verification watcher (lib/contracts/watch.ts) over every store (SCOUTKIT_STORES) with the
// fixture chain: the contracts stored at start checked once per code (across pages), a change
// re-checks only its blocks and nothing settled, a failing pass is reported and the next change
// tries again, stop() ends it; and verifyContract for one address.
import t from 'tap';
import type { Hash, Hex } from '../../../lib/domain/records.ts';
import type { Change, CodeMatcher, ContractCodeRecord, DataSource, MatchOutcome } from '../../../lib/index.ts';
import { codeHashOf, createLocalFeed, hex, verifyContract, watchContracts } from '../../../lib/index.ts';
import { loadFixtureChain } from '../../../fixture/index.ts';
import { storeFactories } from '../../support/stores.ts';
import { contractStoreBeside } from '../../support/contracts.ts';

const change = (from: number, to: number): Change => ({ version: 1, blocks: { from, to }, rolledBackTo: null, pendingAdded: [], transactions: [], addresses: [], tokens: [], pendingDropped: [] });

/** A matcher that knows one code (as a build's artifacts would), and counts what it is asked. */
function oneCodeMatcher(code: Hex): CodeMatcher & { readonly asked: Hex[] } {
  const asked: Hex[] = [];
  return {
    asked,
    match(deployed: Hex, creation: Hex | null): MatchOutcome {
      asked.push(deployed);
      if (deployed !== code) return { status: 'failed', reason: 'mismatch', message: 'Fail - Unable to verify: no contract of the artifacts matches the deployed code' };
      return {
        status: 'verified',
        name: 'Known',
        file: 'src/Known.sol',
        abi: [{ type: 'function', name: 'go', inputs: [], outputs: [], stateMutability: 'nonpayable' }],
        compilerVersion: 'v0.8.24+commit.e11b9ed9',
        compilerSettings: { optimizer: { enabled: true, runs: 200 } },
        sources: { 'src/Known.sol': '// SPDX-License-Identifier: MIT\ncontract Known {}' },
        match: 'full',
        libraries: {},
        constructorArguments: '',
        immutables: {},
        runtimeMatch: 'full',
        creationMatch: creation === null ? null : 'full',
        license: 'MIT',
        optimization: true,
        optimizationRuns: 200,
        evmVersion: 'default',
      };
    },
  };
}

for (const factory of await storeFactories()) {
  await t.test(factory.name, async (t) => {
    const store = await factory.open();
    t.teardown(() => store.close());
    const { facts: f } = await loadFixtureChain(store);
    const contracts = contractStoreBeside(store);
    const all = await store.getContracts(f.smartContracts.newestFirst);
    const withCode = all.filter((c) => c.deployedBytecode.length > 2);
    const codes = new Set(withCode.map((c) => codeHashOf(c.deployedBytecode)));
    const own = withCode.find((c) => c.address === f.smartContracts.byTransaction) as ContractCodeRecord;
    t.ok(withCode.length > 7, `${withCode.length} contracts with code: more than a page`);

    const feed = createLocalFeed();
    const matcher = oneCodeMatcher(own.deployedBytecode);
    const seen: string[] = [];
    const watcher = watchContracts({ source: store, contracts, feed, matcher, onResult: (r) => seen.push(`${r.status}:${r.address}`), pageSize: 7 });
    await watcher.idle();
    t.equal(matcher.asked.length, codes.size, 'each code asked once, however many addresses run it (pages of 7)');
    t.same(watcher.stats, { checked: codes.size, verified: 1 });
    const [saved] = await contracts.getVerified([codeHashOf(own.deployedBytecode) as Hash]);
    t.match(saved, { name: 'Known', match: 'full', licenseType: 'mit', filePath: 'src/Known.sol' });
    t.equal(saved?.address, own.address, 'saved at its address');
    t.equal(seen.filter((s) => s.startsWith('verified:')).length, 1);

    const asked = matcher.asked.length;
    const top = withCode[0]?.blockNumber ?? 0;
    feed.emit(change(top, top));
    feed.emit({ ...change(0, 0), blocks: null });
    await watcher.idle();
    t.equal(matcher.asked.length, asked, 'a change of blocks already settled asks nothing again');

    // a failing pass: reported, and the next change tries again
    const errors: unknown[] = [];
    let fail = true;
    const flaky: DataSource = new Proxy(store, {
      get(target, key, receiver) {
        if (key === 'listContracts' && fail) {
          return async () => {
            fail = false;
            throw new Error('store unreachable');
          };
        }
        const v = Reflect.get(target, key, receiver) as unknown;
        return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
      },
    });
    // beside a SQL store, another contract store is the same tables: the code verified above stays verified
    const fresh = contractStoreBeside(store);
    const already = (await fresh.getVerified([codeHashOf(own.deployedBytecode) as Hash])).length;
    const other = oneCodeMatcher(hex('0x00'));
    const second = watchContracts({ source: flaky, contracts: fresh, feed, matcher: other, onError: (e) => errors.push(e) });
    await second.idle();
    t.equal(errors.length, 1, 'the failed pass is reported');
    t.equal(other.asked.length, 0, 'nothing checked yet');
    feed.emit(change(0, top));
    await second.idle();
    t.equal(other.asked.length, codes.size - already, 'the next change checks its blocks (not a code verified in full)');
    await second.stop();
    await watcher.stop();
    feed.emit(change(0, top));
    await watcher.idle();
    t.equal(matcher.asked.length, asked, 'stopped: changes are not listened to');

    // one address
    const result = await verifyContract({ store, contracts: fresh }, own.address.toUpperCase().replace('0X', '0x'), oneCodeMatcher(own.deployedBytecode));
    t.match(result, { status: 'verified', address: own.address, saved: already === 0, contract: { name: 'Known' } });
    t.ok(Number.isFinite(result.ms) && result.ms >= 0, `timed: ${result.ms.toFixed(2)} ms`);
    t.match(await verifyContract({ store, contracts: fresh }, '0x00000000000000000000000000000000000000aa', matcher), { status: 'failed', reason: 'not-a-contract' });
    t.match(await verifyContract({ store, contracts: fresh }, 'nope', matcher), { status: 'failed', reason: 'invalid-input' });
    t.match(await verifyContract({ store }, own.address, matcher), { status: 'failed', reason: 'no-contract-store' });
    const plain = withCode.find((c) => c.deployedBytecode !== own.deployedBytecode) as ContractCodeRecord;
    t.match(await verifyContract({ store, contracts: fresh }, plain.address, matcher), { status: 'failed', reason: 'mismatch', message: /^Fail - Unable to verify/ });
  });
}
