/**
 * The CSV exports against the JSON lists: every export's rows are the rows its JSON list
 * holds in the period's blocks (walked to the end), in the export's order, with Blockscout's
 * columns; values agree with the JSON items; the row bound cuts the export's first rows; an
 * empty period is the header alone.
 */
import type { Test } from 'tap';
import { createExplorer } from '../../lib/index.ts';
import type { Explorer } from '../../lib/index.ts';
import type { Body, Loaded } from '../support/explorer.ts';
import { walk } from '../support/explorer.ts';
import { csvCases, FIXTURE_DAY } from './cases.ts';

/** RFC 4180 records (quoted fields with doubled quotes; CRLF). */
export function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let i = 0;
  let quoted = false;
  while (i < text.length) {
    const ch = text[i] as string;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') (field += '"'), (i += 2);
      else if (ch === '"') (quoted = false), (i += 1);
      else (field += ch), (i += 1);
    } else if (ch === '"') (quoted = true), (i += 1);
    else if (ch === ',') record.push(field), (field = ''), (i += 1);
    else if (ch === '\r' && text[i + 1] === '\n') record.push(field), records.push(record), (record = []), (field = ''), (i += 2);
    else (field += ch), (i += 1);
  }
  if (field !== '' || record.length > 0) throw new Error('the last record has no CRLF');
  return records;
}

async function exportOf(explorer: Explorer, path: string, query: Record<string, string>): Promise<{ header: string[]; rows: string[][] }> {
  const r = await explorer.handle({ path: `/api/v2${path}`, query });
  if (r.status !== 200 || r.stream === undefined) throw new Error(`${path} → ${r.status}`);
  let text = '';
  for await (const chunk of r.stream) text += chunk;
  const [header, ...rows] = parseCsv(text);
  return { header: header ?? [], rows };
}

const periodSeconds = (p: string | undefined, end: boolean): number | null => {
  if (p === undefined || p === 'null') return null;
  if (/^\d{4}-\d{2}-\d{2}$/.test(p)) return Date.parse(`${p}T00:00:00Z`) / 1000 + (end ? 86_399 : 0);
  const s = Date.parse(p) / 1000;
  return end ? Math.floor(s) : Math.ceil(s);
};

/** The block numbers whose time is in the period, straight from the store. */
async function blocksIn(loaded: Loaded, query: Record<string, string>): Promise<Set<number>> {
  const from = periodSeconds(query.from_period, false);
  const to = periodSeconds(query.to_period, true);
  const out = new Set<number>();
  const head = loaded.chain.facts.headBlockNumber;
  for (let n = 0; n <= head; n += 1) {
    const b = await loaded.store.getBlock({ number: n });
    if (b !== null && (from === null || b.timestamp >= from) && (to === null || b.timestamp <= to)) out.add(n);
  }
  return out;
}

const hashOf = (v: unknown): string => String((v as Body | null)?.['hash'] ?? '');
const lower = (s: string): string => s.toLowerCase();

export async function csvSuite(t: Test, loaded: Loaded): Promise<void> {
  const { explorer } = loaded;
  const f = loaded.chain.facts;
  const cases = csvCases(f);
  let exportsWithRows = 0;

  for (const c of cases) {
    await t.test(`${c.endpoint} ${c.path} ${JSON.stringify(c.query)}`, async (t) => {
      const { header, rows } = await exportOf(explorer, c.path, c.query);
      const inPeriod = await blocksIn(loaded, c.query);
      const side = c.query.filter_type === 'address' ? c.query.filter_value : undefined;
      const listQuery: Record<string, string> = side === undefined ? {} : { filter: side };
      const base = c.path.replace(/\/csv$/, '');
      if (rows.length > 0) exportsWithRows += 1;
      t.ok(rows.every((r) => r.length === header.length), 'every record has the header’s fields');
      switch (c.endpoint) {
        case 'addressTransactionsCsv': {
          t.same(header, ['TxHash', 'BlockNumber', 'UnixTimestamp', 'FromAddress', 'ToAddress', 'ContractAddress', 'Type', 'Value', 'Fee', 'Status', 'ErrCode', 'CurrentPrice', 'TxDateOpeningPrice', 'TxDateClosingPrice', 'MethodName']);
          const json = (await walk(explorer, `/api/v2${base}`, listQuery)).items.filter((i) => i['block_number'] !== null && inPeriod.has(i['block_number'] as number));
          t.same(rows.map((r) => r[0]), json.map((i) => i['hash']), 'the JSON list’s validated rows of the period, in its order');
          const address = lower(c.path.split('/')[2] as string);
          rows.forEach((r, k) => {
            const i = json[k] as Body;
            const fee = i['fee'] as Body;
            const expected = [
              i['hash'],
              String(i['block_number']),
              String(i['timestamp']).replace('T', ' '),
              hashOf(i['from']),
              hashOf(i['to']),
              hashOf(i['created_contract']),
              lower(hashOf(i['from'])) === address ? 'OUT' : lower(hashOf(i['to'])) === address ? 'IN' : '',
              i['value'],
              fee['type'] === 'actual' ? fee['value'] : `Max of ${String(fee['value'])}`,
              i['status'] ?? '',
              i['result'] === 'success' ? '' : i['result'],
              '',
              '',
              '',
              i['method'] ?? '',
            ];
            if (k < 5 || k === rows.length - 1) t.same(r, expected, `row ${k} agrees with the JSON item`);
          });
          break;
        }
        case 'addressTokenTransfersCsv': {
          t.same(header, ['TxHash', 'BlockNumber', 'UnixTimestamp', 'FromAddress', 'ToAddress', 'TokenContractAddress', 'Type', 'TokenDecimals', 'TokenSymbol', 'TokenDecimals', 'TokensTransferred', 'TransactionFee', 'Status', 'ErrCode']);
          const lists = [(await walk(explorer, `/api/v2${base}`, listQuery)).items];
          const address = c.path.split('/')[2] as string;
          // without a side, the transfers of the token the address is are in the export too
          if (side === undefined) {
            const token = await explorer.handle({ path: `/api/v2/tokens/${address}` });
            if (token.status === 200) lists.push((await walk(explorer, `/api/v2/tokens/${address}/transfers`)).items);
          }
          const byLog = new Map<string, Body>();
          for (const i of lists.flat()) if (inPeriod.has(i['block_number'] as number)) byLog.set(`${String(i['block_number']).padStart(8, '0')}:${String(i['log_index']).padStart(6, '0')}`, i);
          const json = [...byLog.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, i]) => i);
          t.same(
            rows.map((r) => [r[0], r[1], lower(r[3] as string), lower(r[4] as string), lower(r[5] as string)]),
            json.map((i) => [i['transaction_hash'], String(i['block_number']), lower(hashOf(i['from'])), lower(hashOf(i['to'])), lower(String((i['token'] as Body)['address_hash']))]),
            'the JSON lists’ transfers of the period (a batch once), oldest first',
          );
          break;
        }
        case 'addressInternalTransactionsCsv': {
          t.same(header, ['TxHash', 'Index', 'BlockNumber', 'BlockHash', 'TxIndex', 'BlockIndex', 'UnixTimestamp', 'FromAddress', 'ToAddress', 'ContractAddress', 'Type', 'CallType', 'Gas', 'GasUsed', 'Value', 'Input', 'Output', 'ErrCode', 'Fee']);
          const json = (await walk(explorer, `/api/v2${base}`, listQuery)).items.filter((i) => inPeriod.has(i['block_number'] as number));
          t.same(
            rows.map((r) => [r[0], r[1], r[2], r[4], r[14], r[12], r[17]]),
            json.map((i) => [i['transaction_hash'], String(i['index']), String(i['block_number']), String(i['transaction_index']), i['value'], i['gas_limit'], i['error'] ?? '']),
            'the JSON list’s rows of the period, in its order',
          );
          break;
        }
        case 'addressLogsCsv': {
          t.same(header, ['TxHash', 'Index', 'BlockNumber', 'BlockHash', 'ContractAddress', 'Data', 'FirstTopic', 'SecondTopic', 'ThirdTopic', 'FourthTopic']);
          const json = (await walk(explorer, `/api/v2${base}`)).items.filter((i) => inPeriod.has(i['block_number'] as number));
          t.same(
            rows.map((r) => [r[0], r[1], r[2], r[4], r[5], ...r.slice(6)]),
            json.map((i) => {
              const topics = (i['topics'] as (string | null)[]).map((x) => x ?? '');
              return [i['transaction_hash'], String(i['index']), String(i['block_number']), hashOf(i['address']), i['data'], ...[0, 1, 2, 3].map((k) => topics[k] ?? '')];
            }),
            'the JSON list’s rows of the period, in its order',
          );
          break;
        }
        case 'tokenHoldersCsv': {
          t.same(header, ['HolderAddress', 'Balance']);
          const json = (await walk(explorer, `/api/v2${base}`)).items;
          const token = (await explorer.handle({ path: `/api/v2/tokens/${c.path.split('/')[2] as string}` })).body as unknown as Body;
          const decimals = token['decimals'] === null ? 0 : Number(token['decimals']);
          t.same(rows.map((r) => r[0]), json.map((i) => hashOf(i['address'])), 'the JSON list’s holders, in its order');
          const scale = 10n ** BigInt(decimals);
          const whole = (v: bigint): string => {
            const fraction = (v % scale).toString().padStart(decimals, '0').replace(/0+$/, '');
            return `${v / scale}.${decimals === 0 || fraction === '' ? '0' : fraction}`;
          };
          t.same(rows.map((r) => r[1]), json.map((i) => whole(BigInt(String(i['value'])))), 'balances in whole tokens, exact (XSD decimal form)');
          t.ok(rows.every((r) => /^-?\d+\.\d+$/.test(r[1] as string)), 'every balance has digits on both sides of the point');
          break;
        }
        case 'advancedFiltersCsv': {
          t.same(header, ['TxHash', 'Type', 'MethodId', 'UtcTimestamp', 'FromAddress', 'ToAddress', 'CreatedContractAddress', 'Value', 'TokenContractAddressHash', 'TokenDecimals', 'TokenSymbol', 'TokenValue', 'TokenID', 'BlockNumber', 'Fee', 'CurrentPrice', 'TxDateOpeningPrice', 'TxDateClosingPrice']);
          // the same filter and start position walked through the JSON list, to its end
          const json = (await walk(explorer, '/api/v2/advanced-filters', c.query, 2000)).items;
          t.same(
            rows.map((r) => [r[0], r[1], r[3], r[4], r[5], r[6], r[7], r[8], r[12], r[13]]),
            json.map((i) => {
              const total = i['total'] as Body | null;
              return [
                i['hash'],
                i['type'],
                String(i['timestamp']).replace('T', ' '),
                hashOf(i['from']),
                hashOf(i['to']),
                hashOf(i['created_contract']),
                i['value'] ?? '',
                String((i['token'] as Body | null)?.['address_hash'] ?? ''),
                String(total?.['token_id'] ?? ''),
                String(i['block_number']),
              ];
            }),
            'the JSON walk’s items, in its order',
          );
          // a transaction item not following an item of its own transaction shows its whole fee in both
          const fees = rows.flatMap((r, k) => {
            const i = json[k] as Body;
            const first = k === 0 || (json[k - 1] as Body)['hash'] !== i['hash'];
            return i['internal_transaction_index'] === null && i['token_transfer_index'] === null && first ? [[r[14], i['fee']]] : [];
          });
          t.ok(fees.length > 0 || json.every((i) => i['internal_transaction_index'] !== null || i['token_transfer_index'] !== null), `${fees.length} transaction fees compared`);
          t.same(fees.map(([a]) => a), fees.map(([, b]) => b), 'transaction fees agree with the JSON items');
          t.ok(rows.every((r) => r[11] === '' || /^\d+\.\d+$/.test(r[11] as string)), 'token values in XSD decimal form');
          break;
        }
        default:
          t.fail(`no check for ${c.endpoint}`);
      }
    });
  }
  t.ok(exportsWithRows >= 10, `${exportsWithRows} exports hold rows`);

  await t.test('the row bound keeps the export’s first rows', async (t) => {
    const bounded = createExplorer({ chains: { '1': loaded.store }, csvExport: { limit: 7 } });
    const config = await bounded.handle({ path: '/api/v2/config/csv-export' });
    t.same(config.body, { limit: 7, async_enabled: false }, '/config/csv-export reports the bound');
    for (const c of cases) {
      const full = await exportOf(explorer, c.path, c.query);
      const cut = await exportOf(bounded, c.path, c.query);
      t.same(cut.rows, full.rows.slice(0, 7), `${c.path} ${JSON.stringify(c.query)}`);
    }
  });

  await t.test('a period without blocks is the header alone; a period is the whole UTC day of a date', async (t) => {
    const path = `/addresses/${f.hotAddress}/token-transfers/csv`;
    const before = await exportOf(explorer, path, { from_period: '2001-01-01', to_period: '2001-12-31' });
    t.equal(before.rows.length, 0);
    t.equal(before.header.length, 14);
    const after = await exportOf(explorer, path, { from_period: '2099-01-01', to_period: 'null' });
    t.equal(after.rows.length, 0);
    const day = await exportOf(explorer, path, { from_period: FIXTURE_DAY, to_period: FIXTURE_DAY });
    const open = await exportOf(explorer, path, { from_period: 'null', to_period: 'null' });
    t.ok(day.rows.length > 100, 'the fixture’s day holds its transfers');
    t.same(day.rows, open.rows, 'a date covers its whole day: the same rows as an open period');
    const offset = await exportOf(explorer, path, { from_period: `${FIXTURE_DAY}T23:20:00%2B01:00`, to_period: `${FIXTURE_DAY}T23:30:00%2B01:00` });
    const utc = await exportOf(explorer, path, { from_period: `${FIXTURE_DAY}T22:20:00Z`, to_period: `${FIXTURE_DAY}T22:30:00Z` });
    t.same(offset.rows, utc.rows, 'a zone offset (encoded %2B) names the same instants');
    t.ok(utc.rows.length > 0 && utc.rows.length < day.rows.length, 'an instant window narrows the day');
  });
}
