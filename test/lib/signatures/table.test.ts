/**
 * The generated signature table (lib/signatures/table.ts, `npm run build:signatures`): every
 * key is the selector (functions, errors) or topic0 (events) of its signatures, every signature
 * parses with viem and names its parameters, and the well-known contracts' entries are there
 * (ERC-20, Ownable, WETH9, Multicall3, Uniswap routers, Safe, ERC-4337's EntryPoint).
 */
import t from 'tap';
import { parseAbiItem, toEventSelector, toFunctionSelector } from 'viem';
import type { AbiEvent, AbiFunction } from 'viem';
import { ERRORS, EVENTS, FUNCTIONS } from '../../../lib/signatures/table.ts';

const named = (item: AbiFunction | AbiEvent): boolean => item.inputs.every((p) => p.name !== undefined && p.name !== '');

t.test('functions and errors: keyed by their selector, parsed by viem', async (t) => {
  let bad = 0;
  let unnamed = 0;
  for (const [kind, table] of [['function', FUNCTIONS], ['error', ERRORS]] as const) {
    for (const [selector, texts] of Object.entries(table)) {
      for (const text of texts) {
        const item = parseAbiItem(`${kind} ${text}`) as AbiFunction;
        if (toFunctionSelector({ ...item, type: 'function', outputs: [], stateMutability: 'nonpayable' }) !== selector) bad++;
        if (!named(item)) unnamed++;
      }
    }
  }
  t.equal(bad, 0, 'every selector matches its signatures');
  t.ok(unnamed < Object.keys(FUNCTIONS).length / 10, `nearly every entry names its parameters (${unnamed} do not)`);
});

t.test('events: keyed by topic0, with their indexed flags', async (t) => {
  let bad = 0;
  for (const [topic, texts] of Object.entries(EVENTS)) for (const text of texts) if (toEventSelector(parseAbiItem(`event ${text}`) as AbiEvent) !== topic) bad++;
  t.equal(bad, 0, 'every topic0 matches its signatures');
  const transfer = EVENTS[toEventSelector('Transfer(address,address,uint256)')] ?? [];
  t.ok(transfer.some((s) => /^Transfer\(address indexed \w+, address indexed \w+, uint256 \w+\)$/.test(s)), 'ERC-20 Transfer with its indexed flags');
  t.ok(transfer.some((s) => /^Transfer\(address indexed \w+, address indexed \w+, uint256 indexed \w+\)$/.test(s)), 'ERC-721 Transfer (same topic0, tokenId indexed)');
});

t.test("the well-known contracts' methods", async (t) => {
  for (const sig of [
    'transferOwnership(address)',
    'deposit()',
    'aggregate3((address,bool,bytes)[])',
    'swapExactTokensForTokens(uint256,uint256,address[],address,uint256)',
    'exactInputSingle((address,address,uint24,address,uint256,uint256,uint256,uint160))',
    'execTransaction(address,uint256,bytes,uint8,uint256,uint256,uint256,address,address,bytes)',
  ]) {
    t.ok(FUNCTIONS[toFunctionSelector(sig)] !== undefined, sig);
  }
  t.ok(ERRORS[toFunctionSelector('OwnableUnauthorizedAccount(address)')] !== undefined, 'an OpenZeppelin custom error');
});
