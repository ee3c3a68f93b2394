/**
 * The Etherscan-compatible dialect: the action registry and `answerEtherscan`, which answers a
 * request's parameters (`module`, `action`, and the action's own) against one chain, and the
 * official documents' `legacy` paths, thin wrappers around three actions. Never throws: a
 * failing store gives 503 with the envelope (and `onError` the cause).
 *
 * Dispatch as Blockscout's: `module` is case-insensitive, `action` is lower-cased; a missing
 * one, an unknown module or an unknown action is HTTP 400 with the envelope.
 */
import type { EtherscanAction, EtherscanAnswer, EtherscanContext, EtherscanQuery } from './action.ts';
import { fail } from './action.ts';
import { balance } from './actions/account.balance.ts';
import { balancemulti } from './actions/account.balancemulti.ts';
import { eth_get_balance } from './actions/account.eth_get_balance.ts';
import { getminedblocks } from './actions/account.getminedblocks.ts';
import { pendingtxlist } from './actions/account.pendingtxlist.ts';
import { tokenbalance } from './actions/account.tokenbalance.ts';
import { tokenlist } from './actions/account.tokenlist.ts';
import { token1155tx, token404tx, token7984tx, tokennfttx, tokentx } from './actions/account.transfers.ts';
import { txlist } from './actions/account.txlist.ts';
import { txlistinternal } from './actions/account.txlistinternal.ts';
import { eth_block_number } from './actions/block.eth_block_number.ts';
import { getblockcountdown } from './actions/block.getblockcountdown.ts';
import { getblocknobytime } from './actions/block.getblocknobytime.ts';
import { getblockreward } from './actions/block.getblockreward.ts';
import { checkproxyverification } from './actions/contract.checkproxyverification.ts';
import { checkverifystatus } from './actions/contract.checkverifystatus.ts';
import { getabi } from './actions/contract.getabi.ts';
import { getcontractcreation } from './actions/contract.getcontractcreation.ts';
import { getsourcecode } from './actions/contract.getsourcecode.ts';
import { listcontracts } from './actions/contract.listcontracts.ts';
import { verifyproxycontract } from './actions/contract.verifyproxycontract.ts';
import { verify_vyper_contract } from './actions/contract.verify_vyper_contract.ts';
import { verifysourcecode } from './actions/contract.verifysourcecode.ts';
import { getlogs } from './actions/logs.getlogs.ts';
import { PROXY_ACTIONS } from './actions/proxy.ts';
import { coinprice, ethprice } from './actions/stats.coinprice.ts';
import { coinsupply } from './actions/stats.coinsupply.ts';
import { ethsupply } from './actions/stats.ethsupply.ts';
import { ethsupplyexchange } from './actions/stats.ethsupplyexchange.ts';
import { tokensupply } from './actions/stats.tokensupply.ts';
import { totalfees } from './actions/stats.totalfees.ts';
import { gettoken } from './actions/token.gettoken.ts';
import { gettokenholders } from './actions/token.gettokenholders.ts';
import { getstatus } from './actions/transaction.getstatus.ts';
import { gettxinfo } from './actions/transaction.gettxinfo.ts';
import { gettxreceiptstatus } from './actions/transaction.gettxreceiptstatus.ts';

export type { EtherscanAction, EtherscanAnswer, EtherscanContext, EtherscanQuery } from './action.ts';

/** Every action served. */
export const ETHERSCAN_ACTIONS: readonly EtherscanAction[] = [
  balance,
  balancemulti,
  eth_get_balance,
  txlist,
  txlistinternal,
  tokentx,
  tokennfttx,
  token1155tx,
  token404tx,
  token7984tx,
  tokenbalance,
  tokenlist,
  getminedblocks,
  pendingtxlist,
  getblockreward,
  getblocknobytime,
  getblockcountdown,
  eth_block_number,
  getlogs,
  gettxinfo,
  gettxreceiptstatus,
  getstatus,
  gettoken,
  gettokenholders,
  tokensupply,
  ethsupply,
  coinsupply,
  ethsupplyexchange,
  coinprice,
  ethprice,
  totalfees,
  getabi,
  getsourcecode,
  getcontractcreation,
  listcontracts,
  verifysourcecode,
  checkverifystatus,
  verifyproxycontract,
  checkproxyverification,
  verify_vyper_contract,
  ...PROXY_ACTIONS,
];

const BY_MODULE = new Map<string, Map<string, EtherscanAction>>();
for (const a of ETHERSCAN_ACTIONS) {
  const actions = BY_MODULE.get(a.module) ?? new Map<string, EtherscanAction>();
  actions.set(a.action, a);
  BY_MODULE.set(a.module, actions);
}

/** Module names served. */
export const ETHERSCAN_MODULES: readonly string[] = [...BY_MODULE.keys()];

export const MISSING_MODULE_OR_ACTION = "Params 'module' and 'action' are required parameters";

async function run(ctx: EtherscanContext, action: EtherscanAction, query: EtherscanQuery): Promise<EtherscanAnswer> {
  try {
    return await action.run(ctx, query);
  } catch (error) {
    ctx.onError?.(error);
    return fail('Something went wrong.', null, 503);
  }
}

/** Answer `/api?module=…&action=…` (params from the query string or a form body). */
export function answerEtherscan(ctx: EtherscanContext, query: EtherscanQuery): Promise<EtherscanAnswer> {
  const module = query.module?.trim().toLowerCase();
  const action = query.action?.trim().toLowerCase();
  if (module === undefined || module === '' || action === undefined || action === '') return Promise.resolve(fail(MISSING_MODULE_OR_ACTION, null, 400));
  const actions = BY_MODULE.get(module);
  if (actions === undefined) return Promise.resolve(fail('Unknown module', null, 400));
  const found = actions.get(action);
  if (found === undefined) return Promise.resolve(fail('Unknown action', null, 400));
  return run(ctx, found, query);
}

/** The `legacy` paths below `/api` (Blockscout 11.2.7's document, tag `legacy`) and the action each wraps. */
export const LEGACY_PATHS: Readonly<Record<string, EtherscanAction>> = {
  '/legacy/logs/get-logs': getlogs,
  '/legacy/block/get-block-number-by-time': getblocknobytime,
  '/legacy/block/eth-block-number': eth_block_number,
};

/** The action of a legacy path below `/api` (case-insensitive, trailing slash allowed), or undefined. */
export function legacyAction(subPath: string): EtherscanAction | undefined {
  const key = subPath.toLowerCase().replace(/\/+$/, '');
  return Object.prototype.hasOwnProperty.call(LEGACY_PATHS, key) ? LEGACY_PATHS[key] : undefined;
}

/** Answer a legacy path's request (its action with the query's parameters). */
export function answerLegacy(ctx: EtherscanContext, action: EtherscanAction, query: EtherscanQuery): Promise<EtherscanAnswer> {
  return run(ctx, action, query);
}

/** Where the dialect answers: `/api` (or `/{chain_id}/api`), and the legacy paths below them. */
export const ETHERSCAN_PATH = '/api';

export interface EtherscanPath {
  /** from `/{chain_id}/api…`; undefined for the per-instance form */
  readonly chainId: string | undefined;
  /** the legacy path's action; undefined for `/api` itself */
  readonly legacy: EtherscanAction | undefined;
}

/**
 * `/api`, `/api/`, `/{chain_id}/api` and the legacy paths below either; null for anything else
 * (including `/api/v2/...`, `/api/eth-rpc` and unknown paths below `/api`).
 */
export function parseEtherscanPath(path: string): EtherscanPath | null {
  const clean = path.split('?')[0] ?? '';
  const m = /^(?:\/([^/]+))?\/api(\/.*)?$/i.exec(clean);
  if (m === null) return null;
  const chainId = m[1] === undefined ? undefined : safeDecode(m[1]);
  const rest = m[2] ?? '';
  if (rest === '' || rest === '/') return { chainId, legacy: undefined };
  const legacy = legacyAction(rest);
  return legacy === undefined ? null : { chainId, legacy };
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
