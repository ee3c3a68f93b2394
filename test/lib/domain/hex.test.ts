/**
 * The records' hex kinds (lib/domain/hex.ts), proved twice: the `@ts-expect-error` lines below
 * must fail to compile (`tsc --noEmit -p .` checks them: an unused one is an error), and the
 * runtime asserts show a mark is the value itself — a brand costs nothing and changes no byte.
 */
import t from 'tap';
import type { Address, BlockHash, Hash, Hex, TransactionHash } from '../../../lib/index.ts';
import {
  address,
  addressOrNull,
  asAddress,
  asBlockHash,
  asTransactionHash,
  EMPTY_HEX,
  hash,
  hashOrNull,
  hex,
  hexOrNull,
  ZERO_ADDRESS,
  ZERO_HASH,
} from '../../../lib/index.ts';

const ADDRESS = '0x00000000000000000000000000000000000000aa';
const HASH = `0x${'ab'.repeat(32)}`;

t.test('a mark is the value itself, unchecked and unchanged', async (t) => {
  t.equal(address(ADDRESS), ADDRESS);
  t.equal(hash(HASH), HASH);
  t.equal(hex('0xA9059CBB'), '0xA9059CBB', 'no lower-casing: the caller says the value is already in the records form');
  t.equal(address('0xabc'), '0xabc', 'no length check either: that is the checked constructors\' job');
  t.equal(addressOrNull(null), null);
  t.equal(hashOrNull(null), null);
  t.equal(hexOrNull('0x'), '0x');
  t.equal(EMPTY_HEX, '0x');
  t.equal(ZERO_ADDRESS, `0x${'0'.repeat(40)}`);
  t.equal(ZERO_HASH, `0x${'0'.repeat(64)}`);
});

t.test('the checked constructors give the same kinds, lower-cased', async (t) => {
  const checked: Address = asAddress(ADDRESS.toUpperCase().replace('0X', '0x'));
  t.equal(checked, ADDRESS);
  const tx: TransactionHash = asTransactionHash(HASH);
  const block: BlockHash = asBlockHash(HASH);
  const asRecord: Hash = tx; // a transaction's hash is a records' Hash
  const alsoRecord: Hash = block;
  t.equal(asRecord, alsoRecord);
  t.throws(() => asAddress(HASH), TypeError, 'a hash is not an address');
});

t.test('the compiler keeps the kinds apart', async (t) => {
  const a = address(ADDRESS);
  const h = hash(HASH);
  const bytes: Hex = a; // an Address is Hex
  const word: Hex = h; // so is a Hash
  // @ts-expect-error an Address is not a Hash
  const notHash: Hash = a;
  // @ts-expect-error a Hash is not an Address
  const notAddress: Address = h;
  // @ts-expect-error bytes are not an Address until marked or checked
  const notYet: Address = bytes;
  // @ts-expect-error a literal is no kind: it is marked where it is declared
  const literal: Address = '0x00000000000000000000000000000000000000aa';
  // @ts-expect-error a template literal type (viem's Hex) is no kind either
  const viemHex: Hex = `0x${'00'}` as `0x${string}`;
  // @ts-expect-error a records' Hash is a transaction's only by the caller's word (asTransactionHash)
  const notTx: TransactionHash = h;
  // @ts-expect-error nor is a transaction's hash a block's
  const notBlock: BlockHash = asTransactionHash(HASH);
  // what compiled above is still the plain string at run time
  t.same([bytes, word, notHash, notAddress, notYet, literal, viemHex, notTx, notBlock], [ADDRESS, HASH, ADDRESS, HASH, ADDRESS, ADDRESS, '0x00', HASH, HASH]);
});
