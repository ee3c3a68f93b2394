/**
 * A reader, unchanged: `@shazow/whatsabi`'s autoload, pointed at the node, finds the proxies in
 * the deployed code and resolves their implementations from the node's state; our indexer, from
 * the prestate diffs and created code, must agree. On anvil: an EIP-1967 proxy after one upgrade
 * and an EIP-1167 clone; for each, whatsabi's resolver kind maps to our `proxy_type` and its
 * resolved address equals `implementations[0].address_hash` on /api/v2/addresses/{h}, and
 * autoload with proxy following lands on that same implementation.
 */
import { autoload, proxies, providers } from '@shazow/whatsabi';
import t from 'tap';
import { createPublicClient, http } from 'viem';
import { foundry } from 'viem/chains';
import { createExplorer, toJson } from '../../lib/index.ts';
import type { Address } from '../../lib/domain/records.ts';
import { startAnvil } from '../../demo/anvil.ts';
import { storeFactories } from '../support/stores.ts';
import { indexerFor } from './helpers.ts';
import { byte, cloneInit, deployer, mined, proxyInit, word } from './proxyContracts.ts';

/** whatsabi's resolver classes, in Blockscout's `proxy_type` names */
function blockscoutKind(resolver: proxies.ProxyResolver): string {
  if (resolver instanceof proxies.EIP1967ProxyResolver) return 'eip1967';
  if (resolver instanceof proxies.FixedProxyResolver) return 'eip1167';
  return `unmapped:${resolver.name}`;
}

t.test("whatsabi's autoload agrees with our proxy_type and implementations", async (t) => {
  const anvil = await startAnvil();
  t.teardown(() => anvil.stop());
  // two implementations with distinct code, the proxy upgraded once, a clone of the first
  const impls: Address[] = [];
  for (const n of [1, 2]) impls.push((await mined(anvil.url, { data: deployer('', `60${byte(n)}00`) })).contractAddress as Address);
  const proxy = (await mined(anvil.url, { data: proxyInit(impls[0] as string) })).contractAddress as Address;
  await mined(anvil.url, { to: proxy, data: `0x${word(impls[1] as string)}` });
  const clone = (await mined(anvil.url, { data: cloneInit(impls[0] as string) })).contractAddress as Address;
  const cases = [
    { what: 'the EIP-1967 proxy after one upgrade', address: proxy, kind: 'eip1967', implementation: impls[1] as string },
    { what: 'the EIP-1167 clone', address: clone, kind: 'eip1167', implementation: impls[0] as string },
  ];

  const provider = providers.CompatibleProvider(createPublicClient({ chain: foundry, transport: http(anvil.url) }));
  const seen = new Map<string, { kinds: string[]; resolved: string[]; followed: string }>();
  for (const c of cases) {
    const result = await autoload(c.address, { provider, followProxies: false, abiLoader: false, signatureLookup: false });
    const resolved = await Promise.all(result.proxies.map((p) => p.resolve(provider, c.address)));
    const followed = await autoload(c.address, { provider, followProxies: true, abiLoader: false, signatureLookup: false });
    seen.set(c.address, { kinds: result.proxies.map(blockscoutKind), resolved: resolved.map((a) => a.toLowerCase()), followed: followed.address.toLowerCase() });
    t.same(seen.get(c.address), { kinds: [c.kind], resolved: [c.implementation], followed: c.implementation }, `whatsabi on ${c.what}: one ${c.kind} proxy, resolved and followed to the deployed implementation`);
  }

  for (const factory of await storeFactories()) {
    await t.test(factory.name, async (t) => {
      const store = await factory.open();
      t.teardown(() => store.close());
      await indexerFor(anvil.url, store).run();
      const explorer = createExplorer({ chains: { '1': { store } } });
      for (const c of cases) {
        const response = await explorer.handle({ path: `/api/v2/addresses/${c.address}`, query: {} });
        t.equal(response.status, 200, `${c.what}: 200`);
        const body = JSON.parse(toJson(response.body)) as { proxy_type: string | null; implementations: { address_hash: string }[] };
        const whatsabi = seen.get(c.address);
        t.same(
          [body.proxy_type, body.implementations.map((i) => i.address_hash.toLowerCase())],
          [whatsabi?.kinds[0], whatsabi?.resolved],
          `${c.what}: our proxy_type and implementations equal whatsabi's kind and resolved address`,
        );
      }
    });
  }
});
