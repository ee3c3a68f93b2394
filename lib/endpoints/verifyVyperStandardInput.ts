/** POST /smart-contracts/{address_hash_param}/verification/via/vyper-standard-input — Blockscout's Vyper standard-JSON input (a JSON file part): a 404 with the reason (./vyperMethod.ts). */
import { vyperMethod } from './vyperMethod.ts';

export const verifyVyperStandardInput = vyperMethod('vyper-standard-input', 'Verify a Vyper contract from its standard-JSON input');
