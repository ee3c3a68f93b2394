/**
 * The CSV writer (RFC 4180), the period codec, exact balances and the keyset page reader.
 */
import t from 'tap';
import * as E from 'fp-ts/lib/Either.js';
import { csvField, csvRecord } from '../../lib/csv/writer.ts';
import { csvTime, keysetPages, period, xsdDecimal } from '../../lib/csv/export.ts';

t.test('RFC 4180: quotes only where needed, quotes doubled, CRLF records', async (t) => {
  t.equal(csvField('plain'), 'plain');
  t.equal(csvField(null), '');
  t.equal(csvField(12), '12');
  t.equal(csvField(2n ** 70n), '1180591620717411303424');
  t.equal(csvField('a,b'), '"a,b"');
  t.equal(csvField('say "hi"'), '"say ""hi"""');
  t.equal(csvField('two\nlines'), '"two\nlines"');
  t.equal(csvField('cr\r'), '"cr\r"');
  t.equal(csvField(''), '');
  t.equal(csvRecord(['a', null, 'b,c', 1]), 'a,,"b,c",1\r\n');
});

t.test('periods: dates, instants, zones, percent-encoded separators', async (t) => {
  const at = (s: string) => {
    const r = period.decode(s);
    return E.isRight(r) ? r.right : 'invalid';
  };
  t.same(at('2023-11-14'), { kind: 'date', start: 1699920000 });
  t.same(at('2023-11-14T22:13:20Z'), { kind: 'instant', at: 1700000000 });
  t.same(at('2023-11-14T22:13:20'), { kind: 'instant', at: 1700000000 }, 'no zone: UTC');
  t.same(at('2023-11-14T23:13:20+01:00'), { kind: 'instant', at: 1700000000 });
  t.same(at('2023-11-14T23%3A13%3A20%2B01%3A00'), { kind: 'instant', at: 1700000000 });
  t.same(at('2023-11-14T21:13:20-01'), { kind: 'instant', at: 1700000000 });
  t.same(at('2023-11-14T22:13Z'), { kind: 'instant', at: 1699999980 });
  t.same(at('2023-11-14T22:13:20.25Z'), { kind: 'instant', at: 1700000000.25 });
  t.equal(at('null'), null);
  for (const bad of ['2023-02-29', '2023-11-31', '2023-11-14T25:00Z', '2023-11-14T22:13:20+1:00', 'today', '']) t.equal(at(bad), 'invalid', bad);
});

t.test('cell formats', async (t) => {
  t.equal(csvTime(1700000000), '2023-11-14 22:13:20.000000Z');
  t.equal(xsdDecimal(1_000_000_000_000_000_000n, 18n), '1.0');
  t.equal(xsdDecimal(1_500_000n, 6n), '1.5');
  t.equal(xsdDecimal(5n, 6n), '0.000005');
  t.equal(xsdDecimal(0n, 18n), '0.0');
  t.equal(xsdDecimal(42n, null), '42.0', 'no decimals: whole units');
  t.equal(xsdDecimal(2n ** 256n - 1n, 18n), '115792089237316195423570985008687907853269984665640564039457.584007913129639935', 'exact at 2^256');
});

t.test('keyset pages: one call per page, never past the bound', async (t) => {
  const rows = Array.from({ length: 250 }, (_, i) => i);
  const calls: [number | null, number][] = [];
  const read = async (after: number | null, limit: number) => {
    calls.push([after, limit]);
    const from = after === null ? 0 : after + 1;
    return rows.slice(from, from + limit);
  };
  const seen: number[] = [];
  for await (const page of keysetPages(read, (r) => r, 230, 100)) seen.push(...page);
  t.same(seen, rows.slice(0, 230));
  t.same(calls, [[null, 100], [99, 100], [199, 30]]);
  const all: number[] = [];
  calls.length = 0;
  for await (const page of keysetPages(read, (r) => r, 10_000, 100)) all.push(...page);
  t.equal(all.length, 250);
  t.same(calls.map(([, l]) => l), [100, 100, 100], 'a short page ends the walk');
});
