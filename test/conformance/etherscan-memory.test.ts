// The Etherscan-compatible dialect over the memory store (see etherscan.ts; SCOUTKIT_STORES selects stores).
import { runEtherscanOn } from './etherscan.ts';

await runEtherscanOn('memory');
