/** POST /smart-contracts/{address_hash_param}/verification/via/vyper-code — Blockscout's Vyper source as one text (`compiler_version`, `source_code`): a 404 with the reason (./vyperMethod.ts). */
import { vyperMethod } from './vyperMethod.ts';

export const verifyVyperCode = vyperMethod('vyper-code', 'Verify a Vyper contract from its source');
