/**
 * Bad input for every endpoint → the exact 422 body; unknown entities → 404; unknown but
 * well-formed addresses on address lists → 200 with an empty page.
 */
import type { Test } from 'tap';
import type { FixtureFacts } from '../../fixture/index.ts';
import type { Loaded } from '../support/explorer.ts';
import { bodyOf } from '../support/explorer.ts';
import { PERIOD_PATTERN } from '../../lib/csv/export.ts';

const ADDRESS_FORMAT = 'Invalid format. Expected ~r/^0x([A-Fa-f0-9]{40})$/';
const HASH_FORMAT = 'Invalid format. Expected ~r/^0x([A-Fa-f0-9]{64})$/';
const INTEGER_STRING_FORMAT = 'Invalid format. Expected ~r/^-?([1-9][0-9]*|0)$/';
const TOKEN_TYPE_ERRORS = [
  'Failed to cast value using any of: Schema(type: :string), Schema(title: "EmptyString", type: :string)',
  'String length is larger than maxLength: 0',
  'Invalid format. Expected ~r/^\\[?(ERC-20|ERC-721|ERC-1155|ERC-404|ERC-7984)(,(ERC-20|ERC-721|ERC-1155|ERC-404|ERC-7984))*\\]?$/i',
];
const MAX = '9007199254740991';
/** an IntegerString | "" | "null" parameter given something else: each alternative's error */
const INTEGER_OR_NULL_ERRORS = [
  'Failed to cast value using any of: Schema(title: "NullString", type: :string), Schema(title: "EmptyString", type: :string), Schema(title: "IntegerString", type: :string)',
  INTEGER_STRING_FORMAT,
  'String length is larger than maxLength: 0',
  'Invalid value for enum',
];

interface BadCase {
  readonly path: string;
  readonly query?: Record<string, string>;
  /** [pointer name, detail] in order */
  readonly errors: readonly (readonly [string, string])[];
}

const err = (name: string, detail: string) => [name, detail] as const;

export function badInputCases(f: FixtureFacts): BadCase[] {
  const a = f.hotAddress;
  const h = f.transactions.eip1559;
  const cases: BadCase[] = [];
  // every path parameter, malformed
  const addressPaths = [
    (x: string) => `/addresses/${x}/transactions`,
    (x: string) => `/addresses/${x}/token-transfers`,
    (x: string) => `/addresses/${x}/logs`,
    (x: string) => `/addresses/${x}/nft`,
    (x: string) => `/addresses/${x}/tabs-counters`,
    (x: string) => `/addresses/${x}/counters`,
    (x: string) => `/addresses/${x}`,
    (x: string) => `/addresses/${x}/coin-balance-history`,
    (x: string) => `/addresses/${x}/coin-balance-history-by-day`,
    (x: string) => `/addresses/${x}/tokens`,
    (x: string) => `/addresses/${x}/token-balances`,
    (x: string) => `/addresses/${x}/internal-transactions`,
    (x: string) => `/addresses/${x}/nft/collections`,
    (x: string) => `/addresses/${x}/blocks-validated`,
    (x: string) => `/addresses/${x}/withdrawals`,
    (x: string) => `/tokens/${x}/instances`,
    (x: string) => `/tokens/${x}/instances/1/transfers`,
    (x: string) => `/tokens/${x}/transfers`,
    (x: string) => `/tokens/${x}`,
    (x: string) => `/tokens/${x}/instances/1`,
    (x: string) => `/tokens/${x}/counters`,
    (x: string) => `/tokens/${x}/holders`,
    (x: string) => `/tokens/${x}/instances/1/holders`,
    (x: string) => `/tokens/${x}/instances/1/transfers-count`,
    (x: string) => `/addresses/${x}/transactions/csv`,
    (x: string) => `/addresses/${x}/token-transfers/csv`,
    (x: string) => `/addresses/${x}/internal-transactions/csv`,
    (x: string) => `/addresses/${x}/logs/csv`,
    (x: string) => `/tokens/${x}/holders/csv`,
    (x: string) => `/smart-contracts/${x}`,
    (x: string) => `/smart-contracts/${x}/audit-reports`,
  ];
  for (const p of addressPaths) {
    for (const bad of ['0x', '0x123', `0X${a.slice(2)}`, `${a}00`, `0x${'g'.repeat(40)}`, 'abc']) {
      cases.push({ path: p(bad), errors: [err('address_hash_param', ADDRESS_FORMAT)] });
    }
  }
  const hashPaths = [
    (x: string) => `/transactions/${x}`,
    (x: string) => `/transactions/${x}/state-changes`,
    (x: string) => `/transactions/${x}/logs`,
    (x: string) => `/transactions/${x}/token-transfers`,
    (x: string) => `/transactions/${x}/internal-transactions`,
    (x: string) => `/transactions/${x}/raw-trace`,
    (x: string) => `/transactions/${x}/preview`,
    (x: string) => `/transactions/${x}/fhe-operations`,
    (x: string) => `/transactions/${x}/summary`,
  ];
  for (const p of hashPaths) {
    for (const bad of ['0x', '0x123', `0X${h.slice(2)}`, `${h}0`, a]) {
      cases.push({ path: p(bad), errors: [err('transaction_hash_param', HASH_FORMAT)] });
    }
  }
  // path errors come first: query errors are not reported with them
  cases.push({ path: '/addresses/0x1/internal-transactions', query: { filter: 'foo', zzz: '1' }, errors: [err('address_hash_param', ADDRESS_FORMAT)] });
  for (const bad of ['0x123123', '123qwe', '-1']) {
    for (const tab of ['', '/transactions', '/internal-transactions', '/withdrawals']) {
      cases.push({
        path: `/blocks/${bad}${tab}`,
        errors: [
          err('block_hash_or_number_param', 'Failed to cast value using any of: Schema(title: "FullHash", type: :string), Schema(type: :integer)'),
          err('block_hash_or_number_param', bad === '-1' ? '-1 is smaller than inclusive minimum 0' : 'Invalid integer. Got: string'),
          err('block_hash_or_number_param', HASH_FORMAT),
        ],
      });
    }
  }
  for (const bad of ['abc', '01', '1.5', '']) {
    cases.push({ path: `/tokens/${f.tokens.erc721}/instances/${bad === '' ? '%20' : bad}/transfers`, errors: [err('token_id_param', INTEGER_STRING_FORMAT)] });
    cases.push({ path: `/tokens/${f.tokens.erc721}/instances/${bad === '' ? '%20' : bad}`, errors: [err('token_id_param', INTEGER_STRING_FORMAT)] });
    cases.push({ path: `/tokens/${f.tokens.erc721}/instances/${bad === '' ? '%20' : bad}/transfers-count`, errors: [err('token_id_param', INTEGER_STRING_FORMAT)] });
    cases.push({ path: `/tokens/${f.tokens.erc1155}/instances/${bad === '' ? '%20' : bad}/holders`, errors: [err('token_id_param', INTEGER_STRING_FORMAT)] });
  }
  // query parameters of every list endpoint
  const lists: [string, string[]][] = [
    [`/addresses/${a}/transactions`, ['items_count']],
    [`/addresses/${a}/token-transfers`, ['block_number', 'index', 'batch_log_index', 'index_in_batch', 'items_count']],
    [`/addresses/${a}/logs`, ['block_number', 'index', 'items_count']],
    [`/addresses/${a}/nft`, ['items_count']],
    [`/addresses/${a}/coin-balance-history`, ['block_number', 'items_count']],
    [`/addresses/${a}/tokens`, ['items_count']],
    [`/addresses/${a}/internal-transactions`, ['block_number', 'index', 'transaction_index', 'items_count']],
    [`/addresses/${a}/nft/collections`, ['items_count']],
    [`/addresses/${a}/blocks-validated`, ['block_number', 'items_count']],
    ['/transactions', ['block_number', 'index', 'items_count']],
    [`/transactions/${h}/state-changes`, ['items_count', 'state_changes_count']],
    [`/transactions/${h}/logs`, ['index', 'block_number', 'items_count']],
    [`/transactions/${h}/token-transfers`, ['block_number', 'index', 'batch_log_index', 'index_in_batch', 'items_count']],
    [`/transactions/${h}/internal-transactions`, ['block_number', 'index', 'transaction_index', 'items_count']],
    [`/blocks/${f.busiestBlock}/transactions`, ['block_number', 'index', 'items_count']],
    [`/blocks/${f.busiestBlock}/internal-transactions`, ['transaction_index', 'index', 'items_count']],
    ['/internal-transactions', ['block_number', 'index', 'transaction_index', 'items_count', 'limit']],
    ['/token-transfers', ['block_number', 'index', 'batch_log_index', 'index_in_batch', 'items_count', 'limit']],
    [`/tokens/${f.instancesToken}/instances`, ['items_count']],
    [`/tokens/${f.tokens.erc721}/instances/1/transfers`, ['block_number', 'index', 'items_count']],
    [`/tokens/${f.busyToken}/transfers`, ['block_number', 'index', 'batch_log_index', 'index_in_batch', 'items_count']],
    ['/blocks', ['block_number', 'items_count']],
    [`/tokens/${f.busyToken}/holders`, ['items_count']],
    ['/addresses', ['items_count']],
    [`/tokens/${f.tokens.erc1155}/instances/1/holders`, ['items_count']],
    ['/withdrawals', ['index', 'items_count']],
    [`/addresses/${a}/withdrawals`, ['index', 'items_count']],
    [`/blocks/${f.busiestBlock}/withdrawals`, ['index', 'items_count']],
    ['/smart-contracts', ['smart_contract_id', 'block_number', 'items_count']],
    ['/tokens/', ['limit', 'items_count']],
    ['/search', ['items_count']],
  ];
  for (const [path, ints] of lists) {
    for (const name of ints) {
      cases.push({ path, query: { [name]: 'abc' }, errors: [err(name, 'Invalid integer. Got: string')] });
      cases.push({ path, query: { [name]: '1e3' }, errors: [err(name, 'Invalid integer. Got: string')] });
      cases.push({ path, query: { [name]: '99999999999999999999999' }, errors: [err(name, `99999999999999999999999 is larger than inclusive maximum ${MAX}`)] });
    }
    for (const name of ints.filter((n) => n === 'block_number' || n === 'items_count' || n === 'state_changes_count')) {
      const min = name === 'items_count' ? 1 : 0;
      cases.push({ path, query: { [name]: '-1' }, errors: [err(name, `-1 is smaller than inclusive minimum ${min}`)] });
    }
    cases.push({ path, query: { foo: '1' }, errors: [err('foo', 'Unexpected field: foo')] });
    cases.push({ path, query: { zz: '1', _: '2', b: 'x' }, errors: [err('_', 'Unexpected field: _')] });
    cases.push({ path, query: { ['x'.repeat(50)]: '1' }, errors: [err('x'.repeat(50), `Unexpected field: ${'x'.repeat(40)}`)] });
  }
  // /blocks/{n}/countdown takes a non-negative integer only (no hash)
  for (const [bad, detail] of [
    ['abc', 'Invalid integer. Got: string'],
    ['1e3', 'Invalid integer. Got: string'],
    [h, 'Invalid integer. Got: string'],
    ['-1', '-1 is smaller than inclusive minimum 0'],
    ['99999999999999999999999', `99999999999999999999999 is larger than inclusive maximum ${MAX}`],
  ] as const) {
    cases.push({ path: `/blocks/${bad}/countdown`, errors: [err('block_number_param', detail)] });
  }
  cases.push({ path: '/blocks/x/countdown', query: { foo: '1' }, errors: [err('block_number_param', 'Invalid integer. Got: string')] });
  // the paths without parameters of their own: only apikey and key
  const bare = ['/smart-contracts/counters', '/withdrawals/counters', '/main-page/blocks', '/main-page/transactions', '/main-page/indexing-status', '/stats/charts/market', '/stats', '/stats/charts/transactions', '/transactions/stats', '/config/backend-version', '/config/backend', '/config/indexer', '/config/csv-export', '/config/public-metrics', '/config/db-background-migrations', '/config/smart-contracts/languages'];
  for (const path of [...bare, `/blocks/${f.headBlockNumber + 5}/countdown`]) {
    cases.push({ path, query: { items_count: '5' }, errors: [err('items_count', 'Unexpected field: items_count')] });
  }
  for (const path of [`/tokens/${f.busyToken}`, `/tokens/${f.busyToken}/counters`, `/tokens/${f.tokens.erc721}/instances/1`, `/tokens/${f.tokens.erc721}/instances/1/transfers-count`]) {
    cases.push({ path, query: { items_count: '5' }, errors: [err('items_count', 'Unexpected field: items_count')] });
  }
  for (const path of [`/tokens/${f.busyToken}/holders`, `/tokens/${f.tokens.erc1155}/instances/1/holders`]) {
    cases.push({ path, query: { address_hash: '0x12' }, errors: [err('address_hash', ADDRESS_FORMAT)] });
    cases.push({ path, query: { value: '1.5' }, errors: INTEGER_OR_NULL_ERRORS.map((d) => err('value', d)) });
    cases.push({ path, query: { token_id: 'x' }, errors: INTEGER_OR_NULL_ERRORS.map((d) => err('token_id', d)) });
  }
  for (const path of [`/transactions/${h}/raw-trace`, `/transactions/${h}/preview`, `/transactions/${h}/fhe-operations`, `/transactions/${h}/summary`, '/stats/charts/secondary-coin-market', `/smart-contracts/${a}`, `/smart-contracts/${a}/audit-reports`]) {
    cases.push({ path, query: { items_count: '5' }, errors: [err('items_count', 'Unexpected field: items_count')] });
  }
  for (const [name, bad] of [['filter', 'rust'], ['sort', 'name'], ['order', 'DESC']] as const) {
    cases.push({ path: '/smart-contracts', query: { [name]: bad }, errors: [err(name, 'Invalid value for enum')] });
  }
  cases.push({ path: '/smart-contracts', query: { hash: '0x12' }, errors: [err('hash', ADDRESS_FORMAT)] });
  cases.push({
    path: '/smart-contracts',
    query: { transactions_count: 'many' },
    errors: [
      err('transactions_count', 'Failed to cast value using any of: Schema(title: "NullString", type: :string), Schema(title: "EmptyString", type: :string), Schema(type: :integer)'),
      err('transactions_count', 'Invalid integer. Got: string'),
      err('transactions_count', 'String length is larger than maxLength: 0'),
      err('transactions_count', 'Invalid format. Expected ~r/^null$/'),
    ],
  });
  for (const path of [`/addresses/${a}`, `/addresses/${a}/coin-balance-history-by-day`, `/addresses/${a}/token-balances`, `/addresses/${a}/tabs-counters`, `/transactions/${h}`, `/blocks/1`]) {
    cases.push({ path, query: { items_count: '5' }, errors: [err('items_count', 'Unexpected field: items_count')] });
  }
  // hot contracts: `scale` is required and an enum; sort and order enums; the paging keys' bounds
  const hot = '/stats/hot-smart-contracts';
  cases.push({ path: hot, errors: [err('scale', 'Missing field: scale')] });
  cases.push({ path: hot, query: { sort: 'total_gas_used' }, errors: [err('scale', 'Missing field: scale')] });
  for (const bad of ['2d', '1D', '']) cases.push({ path: hot, query: { scale: bad }, errors: [err('scale', 'Invalid value for enum')] });
  cases.push({ path: hot, query: { scale: '1d', sort: 'gas' }, errors: [err('sort', 'Invalid value for enum')] });
  cases.push({ path: hot, query: { scale: '1d', order: 'DESC' }, errors: [err('order', 'Invalid value for enum')] });
  cases.push({ path: hot, query: { scale: '1d', transactions_count: '0' }, errors: [err('transactions_count', '0 is smaller than inclusive minimum 1')] });
  cases.push({ path: hot, query: { scale: '1d', total_gas_used: '-1' }, errors: [err('total_gas_used', '-1 is smaller than inclusive minimum 0')] });
  cases.push({ path: hot, query: { scale: '1d', total_gas_used: '1.5' }, errors: [err('total_gas_used', 'Invalid integer. Got: string')] });
  cases.push({ path: hot, query: { scale: '1d', contract_address_hash: '0x12' }, errors: [err('contract_address_hash', ADDRESS_FORMAT)] });
  cases.push({ path: hot, query: { scale: '1d', block_number: '1' }, errors: [err('block_number', 'Unexpected field: block_number')] });
  // /addresses: sort/order enums, an integer-string balance (a `null` literal fails), an address, integer | "" | "null"
  for (const [name, bad] of [['sort', 'fee'], ['order', 'DESC']] as const) {
    cases.push({ path: '/addresses', query: { [name]: bad }, errors: [err(name, 'Invalid value for enum')] });
  }
  for (const bad of ['null', '', '1.5', '01', 'abc']) {
    cases.push({ path: '/addresses', query: { fetched_coin_balance: bad }, errors: [err('fetched_coin_balance', INTEGER_STRING_FORMAT)] });
  }
  cases.push({ path: '/addresses', query: { hash: '0x12' }, errors: [err('hash', ADDRESS_FORMAT)] });
  cases.push({
    path: '/addresses',
    query: { transactions_count: 'abc' },
    errors: [
      err('transactions_count', 'Failed to cast value using any of: Schema(title: "NullString", type: :string), Schema(title: "EmptyString", type: :string), Schema(type: :integer)'),
      err('transactions_count', 'Invalid integer. Got: string'),
      err('transactions_count', 'String length is larger than maxLength: 0'),
      err('transactions_count', 'Invalid format. Expected ~r/^null$/'),
    ],
  });
  cases.push({ path: `/addresses/${a}/counters`, query: { items_count: '5' }, errors: [err('items_count', 'Unexpected field: items_count')] });
  // enums and lists
  for (const [name, bad] of [['filter', 'both'], ['sort', 'gas'], ['order', 'DESC']] as const) {
    cases.push({ path: `/addresses/${a}/transactions`, query: { [name]: bad }, errors: [err(name, 'Invalid value for enum')] });
  }
  cases.push({ path: `/addresses/${a}/token-transfers`, query: { filter: 'any' }, errors: [err('filter', 'Invalid value for enum')] });
  cases.push({ path: `/addresses/${a}/token-transfers`, query: { token: '0x12' }, errors: [err('token', ADDRESS_FORMAT)] });
  // block_number and index on address transactions: integer | "" | "null"
  for (const name of ['block_number', 'index']) {
    for (const [bad, detail] of [
      ['abc', 'Invalid integer. Got: string'],
      ['1.5', 'Invalid integer. Got: string'],
      ['99999999999999999999999', `99999999999999999999999 is larger than inclusive maximum ${MAX}`],
    ] as const) {
      cases.push({
        path: `/addresses/${a}/transactions`,
        query: { [name]: bad },
        errors: [
          err(name, 'Failed to cast value using any of: Schema(title: "NullString", type: :string), Schema(title: "EmptyString", type: :string), Schema(type: :integer)'),
          err(name, detail),
          err(name, 'String length is larger than maxLength: 0'),
          err(name, 'Invalid format. Expected ~r/^null$/'),
        ],
      });
    }
  }
  cases.push({ path: `/addresses/${a}/transactions`, query: { hash: '0x12' }, errors: [err('hash', HASH_FORMAT)] });
  cases.push({ path: `/addresses/${a}/transactions`, query: { inserted_at: 'now' }, errors: [err('inserted_at', 'Invalid format. Expected :"date-time"')] });
  cases.push({ path: `/addresses/${a}/nft`, query: { token_type: 'ERC-99' }, errors: [err('token_type', 'Invalid value for enum')] });
  cases.push({ path: `/addresses/${a}/nft`, query: { token_contract_address_hash: '0xabc' }, errors: [err('token_contract_address_hash', ADDRESS_FORMAT)] });
  cases.push({ path: `/addresses/${a}/logs`, query: { topic: 'Transfer' }, errors: [err('topic', 'Invalid format. Expected ~r/^0x([A-Fa-f0-9]*)$/')] });
  cases.push({ path: `/addresses/${a}/logs`, query: { topic: '0xddf252ad' }, errors: [err('topic', HASH_FORMAT)] });
  cases.push({ path: `/addresses/${a}/internal-transactions`, query: { filter: 'foo' }, errors: [err('filter', 'Invalid value for enum')] });
  cases.push({ path: `/addresses/${a}/internal-transactions`, query: { filter: 'TO' }, errors: [err('filter', 'Invalid value for enum')] });
  cases.push({ path: '/transactions', query: { filter: 'mined' }, errors: [err('filter', 'Invalid value for enum')] });
  cases.push({ path: '/blocks', query: { type: 'Uncle' }, errors: [err('type', 'Invalid value for enum')] });
  for (const bad of ['coin_transfer,contract_call', 'Coin_Transfer', 'validated', '']) {
    cases.push({ path: `/blocks/${f.busiestBlock}/transactions`, query: { type: bad }, errors: [err('type', 'Invalid value for enum')] });
  }
  cases.push({ path: `/blocks/${f.busiestBlock}/internal-transactions`, query: { type: 'call' }, errors: [err('type', 'Unexpected field: type')] });
  cases.push({ path: `/blocks/${f.busiestBlock}/internal-transactions`, query: { internal_type: 'delegatecall' }, errors: [err('internal_type', 'Invalid value for enum')] });
  cases.push({ path: `/blocks/${f.busiestBlock}/internal-transactions`, query: { call_type: 'create' }, errors: [err('call_type', 'Invalid value for enum')] });
  cases.push({ path: `/blocks/${f.busiestBlock}/internal-transactions`, query: { include_zero_value: '1' }, errors: [err('include_zero_value', 'Invalid boolean. Got: string')] });
  cases.push({ path: `/transactions/${h}/internal-transactions`, query: { transaction_hash: h }, errors: [err('transaction_hash', 'Unexpected field: transaction_hash')] });
  cases.push({ path: `/transactions/${h}/token-transfers`, query: { batch_transaction_hash: '0x12' }, errors: [err('batch_transaction_hash', HASH_FORMAT)] });
  cases.push({ path: `/addresses/${a}/nft/collections`, query: { token_type: 'ERC-99' }, errors: [err('token_type', 'Invalid value for enum')] });
  for (const path of [`/addresses/${a}/tokens`, `/addresses/${a}/nft/collections`, '/token-transfers', `/transactions/${h}/token-transfers`, `/addresses/${a}/token-transfers`, `/addresses/${a}/nft`]) {
    for (const bad of ['ERC-99', 'ERC-20 ,ERC-721', 'erc20', '[[ERC-20]']) {
      cases.push({ path, query: { type: bad }, errors: TOKEN_TYPE_ERRORS.map((d) => err('type', d)) });
    }
  }
  cases.push({ path: '/internal-transactions', query: { transaction_hash: '0x12' }, errors: [err('transaction_hash', HASH_FORMAT)] });
  // /tokens/: Blockscout's parameters and paging keys
  for (const bad of ['ERC-99', 'erc20', '[[ERC-20]']) cases.push({ path: '/tokens/', query: { type: bad }, errors: TOKEN_TYPE_ERRORS.map((d) => err('type', d)) });
  cases.push({ path: '/tokens', query: { sort: 'name' }, errors: [err('sort', 'Invalid value for enum')] });
  cases.push({ path: '/tokens/', query: { order: 'up' }, errors: [err('order', 'Invalid value for enum')] });
  cases.push({ path: '/tokens/', query: { contract_address_hash: '0x12' }, errors: [err('contract_address_hash', ADDRESS_FORMAT)] });
  cases.push({ path: '/tokens/', query: { holders_count: '-01' }, errors: INTEGER_OR_NULL_ERRORS.map((d) => err('holders_count', d)) });
  cases.push({ path: '/tokens/', query: { is_name_null: 'yes' }, errors: [err('is_name_null', 'Invalid boolean. Got: string')] });
  for (const name of ['decode_input', 'preload_ens', 'preload_metadata']) {
    cases.push({ path: `/transactions/${h}/preview`, query: { [name]: 'yes' }, errors: [err(name, 'Invalid boolean. Got: string')] });
  }
  cases.push({ path: `/transactions/${h}/summary`, query: { just_request_body: 'yes' }, errors: [err('just_request_body', 'Invalid boolean. Got: string')] });
  cases.push({
    path: '/tokens/',
    query: { market_cap: '1e5' },
    errors: [
      err('market_cap', 'Failed to cast value using any of: Schema(title: "NullString", type: :string), Schema(title: "EmptyString", type: :string), Schema(title: "FloatString", type: :string)'),
      err('market_cap', 'Invalid format. Expected ~r/^([1-9][0-9]*|0)(\\.[0-9]+)?$/'),
      err('market_cap', 'String length is larger than maxLength: 0'),
      err('market_cap', 'Invalid value for enum'),
    ],
  });
  // /search: its own paging keys; search and quick and check-redirect reject unknown fields
  cases.push({ path: '/search', query: { q: 'bulk', 'token[address_hash]': '0x1' }, errors: [err('token[address_hash]', ADDRESS_FORMAT)] });
  cases.push({ path: '/search', query: { q: 'bulk', 'token[holder_count]': 'x' }, errors: INTEGER_OR_NULL_ERRORS.map((d) => err('token[holder_count]', d)) });
  cases.push({ path: '/search', query: { q: 'bulk', 'contract[address_hash]': 'zz' }, errors: [err('contract[address_hash]', ADDRESS_FORMAT)] });
  cases.push({ path: '/search', query: { q: 'bulk', 'token[is_name_null]': '1' }, errors: [err('token[is_name_null]', 'Invalid boolean. Got: string')] });
  for (const path of ['/search/quick', '/search/check-redirect']) {
    cases.push({ path, query: { q: 'bulk', items_count: '5' }, errors: [err('items_count', 'Unexpected field: items_count')] });
  }
  cases.push({ path: '/token-transfers', query: { batch_block_hash: '0x12' }, errors: [err('batch_block_hash', HASH_FORMAT)] });
  cases.push({ path: '/transactions', query: { hash: 'zz', filter: 'pending' }, errors: [err('hash', HASH_FORMAT)] });
  cases.push({ path: '/transactions', query: { inserted_at: 'yesterday' }, errors: [err('inserted_at', 'Invalid format. Expected :"date-time"')] });
  cases.push({ path: `/tokens/${f.instancesToken}/instances`, query: { holder_address_hash: '0x1' }, errors: [err('holder_address_hash', ADDRESS_FORMAT)] });
  cases.push({
    path: `/tokens/${f.instancesToken}/instances`,
    query: { unique_token: '-01' },
    errors: [
      err('unique_token', 'Failed to cast value using any of: Schema(title: "NullString", type: :string), Schema(title: "EmptyString", type: :string), Schema(title: "IntegerString", type: :string)'),
      err('unique_token', INTEGER_STRING_FORMAT),
      err('unique_token', 'String length is larger than maxLength: 0'),
      err('unique_token', 'Invalid value for enum'),
    ],
  });
  cases.push(...csvBadInputCases(f));
  cases.push({ path: `/addresses/${a}/internal-transactions`, query: { include_zero_value: 'yes' }, errors: [err('include_zero_value', 'Invalid boolean. Got: string')] });
  // several failing parameters: one error each, in declaration order
  cases.push({
    path: `/addresses/${a}/internal-transactions`,
    query: { index: 'x', block_number: '-5', filter: 'sideways' },
    errors: [err('block_number', '-5 is smaller than inclusive minimum 0'), err('index', 'Invalid integer. Got: string'), err('filter', 'Invalid value for enum')],
  });
  // /advanced-filters: only the paging keys are validated; filters are free strings
  const NON_NEGATIVE = 'Invalid format. Expected ~r/^([1-9][0-9]*|0)$/';
  for (const name of ['block_number', 'transaction_index']) {
    for (const bad of ['abc', '-1', '01', '1.5']) cases.push({ path: '/advanced-filters', query: { [name]: bad }, errors: [err(name, NON_NEGATIVE)] });
  }
  for (const name of ['internal_transaction_index', 'token_transfer_index', 'token_transfer_batch_index']) {
    cases.push({ path: '/advanced-filters', query: { [name]: 'x' }, errors: INTEGER_OR_NULL_ERRORS.map((d) => err(name, d)) });
  }
  cases.push({ path: '/advanced-filters', query: { items_count: '0' }, errors: [err('items_count', '0 is smaller than inclusive minimum 1')] });
  cases.push({ path: '/advanced-filters', query: { q: 'transfer' }, errors: [err('q', 'Unexpected field: q')] });
  cases.push({ path: '/advanced-filters', query: { methods: 'zz', block_number: 'x', transaction_index: '-2' }, errors: [err('block_number', NON_NEGATIVE), err('transaction_index', NON_NEGATIVE)] });
  cases.push({ path: '/advanced-filters/methods', query: { q: 'a', items_count: '5' }, errors: [err('items_count', 'Unexpected field: items_count')] });
  // /advanced-filters/csv: the same filters and position keys; no page size (the export limit bounds it)
  cases.push({ path: '/advanced-filters/csv', query: { block_number: '-1', methods: 'zz' }, errors: [err('block_number', NON_NEGATIVE)] });
  cases.push({ path: '/advanced-filters/csv', query: { transaction_index: '01' }, errors: [err('transaction_index', NON_NEGATIVE)] });
  cases.push({ path: '/advanced-filters/csv', query: { token_transfer_batch_index: 'one' }, errors: INTEGER_OR_NULL_ERRORS.map((d) => err('token_transfer_batch_index', d)) });
  cases.push({ path: '/advanced-filters/csv', query: { items_count: '50' }, errors: [err('items_count', 'Unexpected field: items_count')] });
  cases.push({ path: '/advanced-filters/csv', query: { from_period: '2023-11-14' }, errors: [err('from_period', 'Unexpected field: from_period')] });
  return cases;
}

const PERIOD_ERRORS = (name: string) => [
  err(name, 'Failed to cast value using any of: Schema(title: "NullString", type: :string), Schema(type: :string)'),
  err(name, `Invalid format. Expected ~r/${PERIOD_PATTERN}/`),
  err(name, 'Invalid format. Expected ~r/^null$/'),
];
const ENUM_ERRORS = (name: string) => [
  err(name, 'Failed to cast value using any of: Schema(title: "NullString", type: :string), Schema(type: :string)'),
  err(name, 'Invalid value for enum'),
  err(name, 'Invalid format. Expected ~r/^null$/'),
];

/** The CSV exports: periods, filters, and the address exports' required periods. */
function csvBadInputCases(f: FixtureFacts): BadCase[] {
  const a = f.hotAddress;
  const day = { from_period: '2023-11-14', to_period: '2023-11-14' };
  const cases: BadCase[] = [];
  for (const kind of ['transactions', 'token-transfers', 'internal-transactions', 'logs']) {
    const path = `/addresses/${a}/${kind}/csv`;
    cases.push({ path, errors: [err('from_period', 'Missing field: from_period'), err('to_period', 'Missing field: to_period')] });
    cases.push({ path, query: { from_period: '2023-11-14' }, errors: [err('to_period', 'Missing field: to_period')] });
    for (const bad of ['yesterday', '2023-13-01', '2023-02-30', '2023-11-14T24:00:00Z', '2023-11-14 10:00:00', '1700000000', '']) {
      cases.push({ path, query: { ...day, from_period: bad }, errors: PERIOD_ERRORS('from_period') });
    }
    cases.push({ path, query: { ...day, to_period: '2023-11-14T10:00:00+01:00x' }, errors: PERIOD_ERRORS('to_period') });
    cases.push({ path, query: { ...day, filter_type: 'topic' }, errors: ENUM_ERRORS('filter_type') });
    cases.push({ path, query: { ...day, filter_value: 'sideways' }, errors: ENUM_ERRORS('filter_value') });
    cases.push({ path, query: { ...day, from_period: 'x', filter_value: 'y' }, errors: [...PERIOD_ERRORS('from_period'), ...ENUM_ERRORS('filter_value')] });
    cases.push({ path, query: { ...day, items_count: '5' }, errors: [err('items_count', 'Unexpected field: items_count')] });
  }
  cases.push({ path: `/tokens/${f.tokens.erc20}/holders/csv`, query: { from_period: 'soon' }, errors: PERIOD_ERRORS('from_period') });
  return cases;
}

export async function errorSuite(t: Test, loaded: Loaded): Promise<void> {
  const f = loaded.chain.facts;
  const ex = loaded.explorer;
  await t.test('bad input → exact 422 bodies', async (t) => {
    const cases = badInputCases(f);
    for (const c of cases) {
      const r = await ex.handle({ path: `/api/v2${c.path}`, query: c.query ?? {} });
      const expected = { errors: c.errors.map(([name, detail]) => ({ title: 'Invalid value', source: { pointer: `/${name}` }, detail })) };
      t.same({ status: r.status, body: r.body }, { status: 422, body: expected }, `${c.path} ${JSON.stringify(c.query ?? {})}`, { diagnostic: false });
    }
    t.ok(cases.length > 200, `${cases.length} bad-input cases`);
  });

  await t.test('unknown entities → 404 {"message":"Not found"}', async (t) => {
    const nowhere = `0x${'ab'.repeat(32)}`;
    const noToken = f.unknownAddress;
    const paths = [
      `/transactions/${nowhere}`,
      `/transactions/${nowhere}/state-changes`,
      `/transactions/${nowhere}/logs`,
      `/transactions/${nowhere}/token-transfers`,
      `/transactions/${nowhere}/internal-transactions`,
      `/blocks/${nowhere}/transactions`,
      `/blocks/${nowhere}/internal-transactions`,
      `/blocks/${f.headBlockNumber + 1}/transactions`,
      `/blocks/${f.headBlockNumber + 1}/internal-transactions`,
      `/blocks/${nowhere}/withdrawals`,
      `/blocks/${f.headBlockNumber + 1}/withdrawals`,
      `/tokens/${noToken}/instances`,
      `/tokens/${noToken}/transfers`,
      `/tokens/${noToken}/instances/1/transfers`,
      `/tokens/${f.tokens.erc20}/instances/1/transfers`,
      `/tokens/${noToken}`,
      `/tokens/${noToken}/instances/1`,
      `/tokens/${f.tokens.erc20}/instances/1`,
      `/tokens/${noToken}/counters`,
      `/tokens/${noToken}/holders`,
      `/tokens/${noToken}/holders/csv`,
      `/tokens/${noToken}/instances/1/holders`,
      `/tokens/${f.tokens.erc20}/instances/1/holders`,
      `/tokens/${noToken}/instances/1/transfers-count`,
      `/tokens/${f.tokens.erc20}/instances/1/transfers-count`,
      `/tokens/${f.tokens.erc721}/instances/${f.bigTokenId + 7n}`,
      `/blocks/${nowhere}`,
      `/blocks/${f.headBlockNumber + 1}`,
      `/blocks/9007199254740991`,
      `/transactions/${nowhere}/raw-trace`,
      `/transactions/${nowhere}/preview`,
      `/transactions/${nowhere}/fhe-operations`,
      `/transactions/${nowhere}/summary`,
      `/smart-contracts/${noToken}`,
      `/smart-contracts/${f.eoas.alice}`,
      `/smart-contracts/${noToken}/audit-reports`,
      `/smart-contracts/${f.eoas.alice}/audit-reports`,
    ];
    for (const p of paths) {
      const r = await ex.handle({ path: `/api/v2${p}` });
      t.same({ status: r.status, body: r.body }, { status: 404, body: { message: 'Not found' } }, p);
    }
    const holderOnErc20 = await ex.handle({ path: `/api/v2/tokens/${f.tokens.erc20}/instances`, query: { holder_address_hash: f.hotAddress } });
    t.equal(holderOnErc20.status, 404, 'instances of an ERC-20 by holder → 404');
  });

  await t.test('unknown, well-formed addresses → 200 with an empty page', async (t) => {
    const u = f.unknownAddress;
    for (const p of ['transactions', 'token-transfers', 'logs', 'nft', 'coin-balance-history', 'tokens', 'internal-transactions', 'nft/collections', 'blocks-validated', 'withdrawals']) {
      const r = await ex.handle({ path: `/api/v2/addresses/${u}/${p}` });
      t.same({ status: r.status, body: r.body }, { status: 200, body: { items: [], next_page_params: null } }, p);
    }
    for (const p of ['transactions', 'token-transfers', 'internal-transactions', 'logs']) {
      const r = await ex.handle({ path: `/api/v2/addresses/${u}/${p}/csv`, query: { from_period: 'null', to_period: 'null' } });
      let text = '';
      for await (const chunk of r.stream ?? []) text += chunk;
      t.same({ status: r.status, records: text.split('\r\n').length }, { status: 200, records: 2 }, `${p}/csv → the header record alone`);
    }
    const balances = await ex.handle({ path: `/api/v2/addresses/${u}/token-balances` });
    t.same({ status: balances.status, body: balances.body }, { status: 200, body: [] }, 'token-balances → []');
  });

  await t.test('hashes in any case give identical answers', async (t) => {
    const lower = await ex.handle({ path: `/api/v2/addresses/${f.hotAddress}/tokens` });
    const upper = await ex.handle({ path: `/api/v2/addresses/0x${f.hotAddress.slice(2).toUpperCase()}/tokens` });
    t.same(bodyOf(upper), bodyOf(lower), 'address hash, upper case');
    const tx = f.transactions.eip1559;
    const a = await ex.handle({ path: `/api/v2/transactions/${tx}` });
    const b = await ex.handle({ path: `/api/v2/transactions/0x${tx.slice(2).toUpperCase()}` });
    t.same(b.body, a.body, 'transaction hash, upper case');
  });

  await t.test('unknown routes and methods', async (t) => {
    const r = await ex.handle({ path: '/api/v2/nothing-here' });
    t.equal(r.status, 404);
    const m = await ex.handle({ path: '/api/v2/blocks', method: 'POST' });
    t.same({ status: m.status, body: m.body }, { status: 405, body: { message: 'Method not allowed' } });
    const c = await ex.handle({ path: '/999/api/v2/blocks' });
    t.same({ status: c.status, body: c.body }, { status: 404, body: { message: 'Unknown chain: 999' } }, 'unconfigured chain');
  });
}
