/** Token instances: derived owners and uniqueness, listTokenInstances. (the port suite, over every store). */
import type { Address } from '../../lib/domain/records.ts';
import type { HeldTokenInstance, TokenInstanceFilter } from '../../lib/ports.ts';
import { ZERO, A, B, C, T721, T1155, T404, block, tx, log, transfer, token, bal, inst, address, bundle, page, walksBothWays } from './records.ts';
import { storeTest } from './stores.ts';

storeTest('ERC-1155 / ERC-404 uniqueness and ERC-721 ownership', async (t, s) => {
  const b1 = block(1);
  const x = tx(b1, 0);
  await s.writeBlocks([
    bundle(b1, {
      transactions: [x],
      tokenTransfers: [transfer(x, 0, T721, 'ERC-721', ZERO, A, [1n]), transfer(x, 1, T721, 'ERC-721', A, B, [1n])],
      tokenBalances: [
        bal(b1, A, T1155, 'ERC-1155', 1n, 1n), // id 1: sole holder of exactly 1 → unique
        bal(b1, A, T1155, 'ERC-1155', 2n, 2n), // id 2: sole holder of 2 → not unique
        bal(b1, A, T1155, 'ERC-1155', 1n, 3n), // id 3: two holders → not unique
        bal(b1, B, T1155, 'ERC-1155', 1n, 3n),
        bal(b1, A, T1155, 'ERC-1155', 1n, 4n), // id 4: zero address ignored; B holds 0
        bal(b1, ZERO, T1155, 'ERC-1155', 3n, 4n),
        bal(b1, B, T1155, 'ERC-1155', 0n, 4n),
        bal(b1, C, T404, 'ERC-404', 1n, 8n),
      ],
      tokenInstances: [
        inst(b1, T721, 'ERC-721', 1n),
        inst(b1, T721, 'ERC-721', 2n), // no transfer: owner unknown, still unique
        ...[1n, 2n, 3n, 4n, 5n].map((id) => inst(b1, T1155, 'ERC-1155', id)),
        inst(b1, T404, 'ERC-404', 8n),
      ],
    }),
  ]);
  const owner = async (tokenAddress: Address, tokenId: bigint) => {
    const i = (await s.getTokenInstances([{ tokenAddress, tokenId }]))[0] ?? null;
    return i === null ? 'missing' : `${i.owner ?? 'null'}/${i.isUnique}`;
  };
  t.equal(await owner(T721, 1n), `${B}/true`, 'latest transfer wins (same block, higher log index)');
  t.equal(await owner(T721, 2n), 'null/true');
  t.equal(await owner(T1155, 1n), `${A}/true`);
  t.equal(await owner(T1155, 2n), 'null/false');
  t.equal(await owner(T1155, 3n), 'null/false');
  t.equal(await owner(T1155, 4n), `${A}/true`);
  t.equal(await owner(T1155, 5n), 'null/false', 'instance without holders');
  t.equal(await owner(T1155, 6n), 'missing');
  t.equal(await owner(T404, 8n), `${C}/true`);
  const batch = await s.getTokenInstances([
    { tokenAddress: T1155, tokenId: 1n },
    { tokenAddress: T1155, tokenId: 1n },
    { tokenAddress: T1155, tokenId: 99n },
  ]);
  t.equal(batch.length, 1, 'batch: found records once, missing absent');
});

storeTest('token instances list: order, cursor, holder filter', async (t, s) => {
  const b1 = block(1);
  const x = tx(b1, 0);
  await s.writeBlocks([
    bundle(b1, {
      transactions: [x],
      tokenTransfers: [
        transfer(x, 0, T721, 'ERC-721', ZERO, A, [1n]),
        transfer(x, 1, T721, 'ERC-721', ZERO, A, [3n]),
        transfer(x, 2, T721, 'ERC-721', ZERO, B, [2n]),
        transfer(x, 3, T721, 'ERC-721', ZERO, A, [10n]), // no instance row
      ],
      tokenBalances: [bal(b1, A, T1155, 'ERC-1155', 4n, 1n), bal(b1, A, T1155, 'ERC-1155', 0n, 2n), bal(b1, A, T1155, 'ERC-1155', 1n, 3n)],
      tokenInstances: [
        ...[1n, 2n, 3n, 20n].map((id) => inst(b1, T721, 'ERC-721', id)),
        ...[1n, 2n, 3n].map((id) => inst(b1, T1155, 'ERC-1155', id)),
      ],
    }),
  ]);
  const ids = (rows: readonly { instance: { tokenId: bigint }; value: bigint | null }[]) => rows.map((r) => `${r.instance.tokenId}:${r.value ?? '-'}`);
  t.same(ids(await s.listTokenInstances({ tokenAddress: T721 }, page())), ['20:-', '3:-', '2:-', '1:-']);
  t.same(ids(await s.listTokenInstances({ tokenAddress: T721 }, page({ tokenId: 3n }, 1))), ['2:-']);
  t.same(ids(await s.listTokenInstances({ tokenAddress: T721, holder: A }, page())), ['3:1', '1:1']);
  t.same(ids(await s.listTokenInstances({ tokenAddress: T721, holder: A }, page({ tokenId: 3n }))), ['1:1']);
  t.same(ids(await s.listTokenInstances({ tokenAddress: T1155, holder: A }, page())), ['3:1', '1:4']);
  t.same(ids(await s.listTokenInstances({ tokenAddress: T1155, holder: A }, page(null, 1))), ['3:1']);
  t.same(ids(await s.listTokenInstances({ tokenAddress: T1155, holder: B }, page())), []);
  const key = (r: HeldTokenInstance) => `${r.instance.tokenId}:${r.value ?? '-'}`;
  const cursorOf = (r: HeldTokenInstance) => ({ tokenId: r.instance.tokenId });
  const walks = (label: string, f: TokenInstanceFilter, expected: readonly string[]) =>
    walksBothWays(t, label, (p) => s.listTokenInstances(f, p), cursorOf, key, expected);
  await walks('T721', { tokenAddress: T721 }, ['20:-', '3:-', '2:-', '1:-']);
  await walks('T721 held by A', { tokenAddress: T721, holder: A }, ['3:1', '1:1']);
  await walks('T1155 held by A', { tokenAddress: T1155, holder: A }, ['3:1', '1:4']);
  t.same(ids(await s.listTokenInstances({ tokenAddress: T721 }, page({ tokenId: 2n }, 100, 'asc'))), ['3:-', '20:-']);
  t.same(ids(await s.listTokenInstances({ tokenAddress: T721, holder: A }, page({ tokenId: 1n }, 100, 'asc'))), ['3:1']);
});
