// The Etherscan-compatible dialect over the postgres store (see etherscan.ts; SCOUTKIT_STORES selects stores).
import { runEtherscanOn } from './etherscan.ts';

await runEtherscanOn('postgres');
