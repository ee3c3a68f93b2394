/**
 * The storage slots proxies keep their implementation in, as Blockscout's generic resolvers read
 * them (one table for the indexer's detection and the verify flow's node reads).
 */
import type { Hash } from '../domain/records.ts';
import { hash, hex, ZERO_HASH } from '../domain/hex.ts';

export const PROXY_SLOTS = {
  /** EIP-1967 implementation: bytes32(uint256(keccak256('eip1967.proxy.implementation')) - 1) */
  eip1967: hash('0x360894a13ba1a3210667c828492db98dca3e2076cc3735a920a3ca505d382bbc'),
  /** EIP-1822 (UUPS) PROXIABLE: keccak256('PROXIABLE') */
  eip1822: hash('0xc5f16f0fcc639fa48a6947836d9850f504798523bf8c9a3a87d5876cf622bcf7'),
  /** EIP-1967 beacon: bytes32(uint256(keccak256('eip1967.proxy.beacon')) - 1) */
  beacon: hash('0xa3f0ad74e5423aebfd80d3ef4346578335a9a72aeaee59ff6cb3582b35133d50'),
  /** OpenZeppelin's legacy slot: keccak256('org.zeppelinos.proxy.implementation') */
  eip1967Oz: hash('0x7050c9e0f4ca769c69bd3a8ef740bc37934f8e2c036e5a723fd8ee048ed3f8c3'),
  /** Safe's master copy (singleton): slot 0 */
  masterCopy: ZERO_HASH,
} as const satisfies Record<string, Hash>;

/** `implementation()`, called on a beacon */
export const IMPLEMENTATION_SELECTOR = '0x5c60da1b';

/** `Upgraded(address indexed implementation)`: EIP-1967 proxies and OpenZeppelin's UpgradeableBeacon */
export const UPGRADED_TOPIC = hex('0xbc7cd75a20ee27fd9adebab32041f755214dbc6bffa90cc0225b39da2e5c2d3b');
/** EIP-2535 `DiamondCut((address,uint8,bytes4[])[],address,bytes)` */
export const DIAMOND_CUT_TOPIC = hex('0x8faa70878671ccd212d20771b795c50af8fd3ff6cf27f4bde57e5d4de0aeb673');
