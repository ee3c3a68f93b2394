/**
 * `account/tokentx` (ERC-20), `tokennfttx` (ERC-721), `token1155tx` (ERC-1155), `token404tx`
 * (ERC-404: `tokenID` of an NFT leg, "" for a fungible one, and `value`) and `token7984tx`
 * (ERC-7984: confidential amounts, `value` null as Blockscout renders it): the
 * consensus token transfers of that standard from or to `address` and/or of the token
 * `contractaddress` (at least one), by block then log index (`sort`, default desc), within
 * `startblock`..`endblock`, paged by `page`/`offset`. An ERC-1155 batch transfer is one row per
 * id (as Etherscan lists it); the page counts rows.
 */
import type { TokenTransferRecord, TokenType } from '../../domain/records.ts';
import type { TokenTransferFilter } from '../../ports.ts';
import type { EtherscanAction } from '../action.ts';
import { fail, none, ok } from '../action.ts';
import { collectWindow } from '../paging.ts';
import { LISTING, OPTIONAL_ADDRESS, OPTIONAL_CONTRACTADDRESS } from '../paramDocs.ts';
import { blockRange, optionalAddress, param, sortParam, windowParam } from '../params.ts';
import { confirmations, cumulativeGas, decodeContextOf, functionNameOf, gasKey, headOf, methodIdOf, str, tokensOf, transactionsOf } from '../rows.ts';

interface Row {
  readonly transfer: TokenTransferRecord;
  /** for ERC-721/1155: the id and (1155) its amount */
  readonly id: bigint | null;
  readonly amount: bigint | null;
}

function rowsOf(t: TokenTransferRecord): readonly Row[] {
  if (t.tokenIds.length === 0) return [{ transfer: t, id: null, amount: t.amount }];
  return t.tokenIds.map((id, i) => ({ transfer: t, id, amount: t.amounts[i] ?? t.amount }));
}

function transferAction(action: string, type: TokenType): EtherscanAction {
  return {
    module: 'account',
    action,
    summary: `The ${type} transfers from or to an address, or of a token`,
    params: [OPTIONAL_ADDRESS, OPTIONAL_CONTRACTADDRESS, ...LISTING],
    async run(ctx, query) {
      if (param(query, 'address') === undefined && param(query, 'contractaddress') === undefined) {
        return fail('Required query parameters missing: address or contractaddress');
      }
      const address = optionalAddress(query, 'address');
      if ('error' in address) return address.error;
      const token = optionalAddress(query, 'contractaddress');
      if ('error' in token) return token.error;
      const window = windowParam(query);
      if ('error' in window) return window.error;
      const filter: TokenTransferFilter = {
        types: [type],
        ...(address.value !== undefined ? { address: address.value } : {}),
        ...(token.value !== undefined ? { tokenAddress: token.value } : {}),
        blocks: blockRange(query),
      };
      const order = sortParam(query);
      const rows = await collectWindow<TokenTransferRecord, Row>(
        (after, limit) => ctx.ds.listTokenTransfers(filter, { after: after === null ? null : { blockNumber: after.blockNumber, logIndex: after.logIndex }, limit, order }),
        window.value,
        rowsOf,
      );
      if (rows.length === 0) return none('No token transfers found');
      const [head, txs, tokens, gas] = await Promise.all([
        headOf(ctx.ds),
        transactionsOf(ctx.ds, rows.map((r) => r.transfer.transactionHash)),
        tokensOf(ctx.ds, rows.map((r) => r.transfer.tokenAddress)),
        cumulativeGas(ctx.ds, rows.map((r) => ({ blockNumber: r.transfer.blockNumber, index: r.transfer.transactionIndex }))),
      ]);
      const dc = await decodeContextOf(ctx, [...txs.values()]);
      return ok(
        rows.map(({ transfer: t, id, amount }) => {
          const tx = txs.get(t.transactionHash);
          const tk = tokens.get(t.tokenAddress);
          return {
            blockNumber: str(t.blockNumber),
            timeStamp: str(t.timestamp),
            hash: t.transactionHash,
            nonce: str(tx?.nonce),
            blockHash: t.blockHash,
            from: t.from,
            contractAddress: t.tokenAddress,
            to: t.to,
            ...(type === 'ERC-20' || type === 'ERC-404' ? { value: str(amount) } : {}),
            ...(type === 'ERC-7984' ? { value: null } : {}),
            ...(type !== 'ERC-20' && type !== 'ERC-7984' ? { tokenID: str(id) } : {}),
            ...(type === 'ERC-1155' ? { tokenValue: str(amount) } : {}),
            tokenName: str(tk?.name),
            tokenSymbol: str(tk?.symbol),
            tokenDecimal: str(tk?.decimals),
            transactionIndex: str(t.transactionIndex),
            gas: str(tx?.gas),
            gasPrice: str(tx?.gasPrice),
            gasUsed: str(tx?.gasUsed),
            cumulativeGasUsed: str(gas.get(gasKey(t.blockNumber, t.transactionIndex))),
            input: tx?.input ?? '',
            confirmations: confirmations(head, t.blockNumber),
            methodId: tx === undefined ? '' : methodIdOf(tx),
            functionName: tx === undefined ? '' : functionNameOf(tx, dc),
          };
        }),
      );
    },
  };
}

export const tokentx = transferAction('tokentx', 'ERC-20');
export const tokennfttx = transferAction('tokennfttx', 'ERC-721');
export const token1155tx = transferAction('token1155tx', 'ERC-1155');
export const token404tx = transferAction('token404tx', 'ERC-404');
export const token7984tx = transferAction('token7984tx', 'ERC-7984');
