/** `web3_clientVersion`: this server, `scoutkit/v<version>` (the client talks to the explorer, not to its node). */
import { SCOUTKIT_VERSION } from '../../version.ts';
import type { RpcMethod } from '../context.ts';

export const web3_clientVersion: RpcMethod = {
  name: 'web3_clientVersion',
  async run() {
    return { result: `scoutkit/v${SCOUTKIT_VERSION}` };
  },
};
