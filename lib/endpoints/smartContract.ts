/**
 * GET /smart-contracts/{address_hash_param} — a contract the indexer saw created. With a
 * contract store holding a verified contract for its code (keccak256 of the runtime code):
 * Blockscout's verified shape, its own verification (`is_verified: true`) or a bytecode twin's
 * (`is_verified: false`, `verified_twin_address_hash`). Otherwise its deployed and creation
 * bytecode in Blockscout's unverified shape, with `is_verified: false`. 404
 * `{"message":"Not found"}` for an address without a created contract (an EOA, an unknown address).
 */
import * as E from 'fp-ts/lib/Either.js';
import { verifiedByAddress } from '../contracts/lookup.ts';
import { notFound } from '../errors.ts';
import { addressHash } from '../params/codecs.ts';
import { renderSmartContract } from '../render/contract.ts';
import { loadProxyView, proxyFields } from '../proxy/view.ts';
import { renderVerifiedSmartContract } from '../render/verified.ts';
import { SmartContract } from '../schema/contract.ts';
import { defineEndpoint } from './endpoint.ts';

export const smartContract = defineEndpoint({
  route: '/smart-contracts/{address_hash_param}',
  summary: "A contract's verified sources, ABI and compiler settings (its own or a bytecode twin's), and its bytecode",
  path: { address_hash_param: addressHash },
  query: {},
  response: SmartContract,
  handler:
    ({ ds, chain }) =>
    ({ path }) =>
    async () => {
      const address = path.address_hash_param;
      const [[contract], verified, proxyView] = await Promise.all([
        ds.getContracts([address]),
        chain.contracts === undefined ? Promise.resolve(undefined) : verifiedByAddress(ds, chain.contracts, [address]),
        loadProxyView(ds, chain.contracts, [address]),
      ]);
      if (contract === undefined) return E.left(notFound);
      const tx = await ds.getTransaction(contract.transactionHash);
      const byTransaction = tx?.createdContract === contract.address;
      const verification = verified?.get(address);
      const body = verification === undefined ? renderSmartContract(contract, byTransaction) : renderVerifiedSmartContract(contract, byTransaction, verification);
      return E.right({ ...body, ...proxyFields(proxyView, address) });
    },
});
