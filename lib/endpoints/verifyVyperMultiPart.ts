/** POST /smart-contracts/{address_hash_param}/verification/via/vyper-multi-part — Blockscout's Vyper files (`files[i]`, `interfaces`): a 404 with the reason (./vyperMethod.ts). */
import { vyperMethod } from './vyperMethod.ts';

export const verifyVyperMultiPart = vyperMethod('vyper-multi-part', 'Verify a Vyper contract from several files');
