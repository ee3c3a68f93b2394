/**
 * `eth_accounts`: none — the explorer holds no keys, and the node's own (anvil's unlocked dev
 * accounts) are not offered through it. Wallets with a local account sign and send raw.
 */
import type { RpcMethod } from '../context.ts';

export const eth_accounts: RpcMethod = {
  name: 'eth_accounts',
  async run() {
    return { result: [] };
  },
};
