/**
 * GET /smart-contracts/{address_hash_param} — a contract the indexer saw created: its deployed
 * and creation bytecode in Blockscout's unverified shape, with `is_verified: false`. 404
 * `{"message":"Not found"}` for an address without a created contract (an EOA, an unknown address).
 */
import * as E from 'fp-ts/lib/Either.js';
import { notFound } from '../errors.ts';
import { addressHash } from '../params/codecs.ts';
import { renderSmartContract } from '../render/contract.ts';
import { SmartContract } from '../schema/contract.ts';
import { defineEndpoint } from './endpoint.ts';

export const smartContract = defineEndpoint({
  route: '/smart-contracts/{address_hash_param}',
  summary: "A contract's deployed and creation bytecode (unverified)",
  path: { address_hash_param: addressHash },
  query: {},
  response: SmartContract,
  handler:
    ({ ds }) =>
    ({ path }) =>
    async () => {
      const [contract] = await ds.getContracts([path.address_hash_param]);
      if (contract === undefined) return E.left(notFound);
      const tx = await ds.getTransaction(contract.transactionHash);
      return E.right(renderSmartContract(contract, tx?.createdContract === contract.address));
    },
});
