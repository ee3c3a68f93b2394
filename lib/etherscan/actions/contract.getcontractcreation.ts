/**
 * `contract/getcontractcreation`: `contractaddresses` (a comma list, the first 10 used) → per
 * contract the store saw created `{contractAddress, contractCreator, txHash, blockNumber,
 * timestamp, contractFactory, creationBytecode}`, all strings, in the order asked. As
 * Blockscout's: `contractCreator` is the creating transaction's sender; `contractFactory` the
 * contract whose create frame made it ("" for a creation by a transaction); `creationBytecode`
 * the init code ("" when unknown). Malformed addresses, unknown ones and addresses without a
 * creation are dropped (so the result may be `[]`); no `contractaddresses` at all is status "0"
 * with the message as the result.
 */
import type { Address } from '../../domain/records.ts';
import type { EtherscanAction } from '../action.ts';
import { fail, ok } from '../action.ts';
import { isAddress, param } from '../params.ts';
import { str, transactionsOf } from '../rows.ts';

/** Blockscout reads at most this many of the listed addresses. */
export const CONTRACT_CREATION_LIMIT = 10;
export const ADDRESSES_REQUIRED = 'Query parameter contractaddresses is required';

export const getcontractcreation: EtherscanAction = {
  module: 'contract',
  action: 'getcontractcreation',
  summary: 'The creator and creating transaction of contracts',
  params: [{ name: 'contractaddresses', description: 'Contract addresses separated by commas (the first 10)', required: true, example: 'contract' }],
  async run(ctx, query) {
    const raw = param(query, 'contractaddresses');
    if (raw === undefined) return fail(ADDRESSES_REQUIRED, ADDRESSES_REQUIRED);
    const asked = raw
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s !== '')
      .slice(0, CONTRACT_CREATION_LIMIT)
      .filter(isAddress)
      .map((s) => s.toLowerCase() as Address);
    const records = asked.length === 0 ? [] : await ctx.ds.getContracts([...new Set(asked)]);
    const byAddress = new Map(records.map((r) => [r.address, r]));
    const txs = await transactionsOf(ctx.ds, records.map((r) => r.transactionHash));
    const result = asked.flatMap((address) => {
      const c = byAddress.get(address);
      const tx = c === undefined ? undefined : txs.get(c.transactionHash);
      if (c === undefined || tx === undefined) return [];
      const byTransaction = tx.to === null && tx.createdContract === address;
      return [
        {
          contractAddress: address,
          contractCreator: tx.from,
          txHash: c.transactionHash,
          blockNumber: str(c.blockNumber),
          timestamp: str(c.timestamp),
          contractFactory: byTransaction ? '' : c.creator,
          creationBytecode: c.creationBytecode ?? '',
        },
      ];
    });
    return ok(result);
  },
};
