/**
 * GET /tokens/{address_hash_param}/holders/csv — the token's current holders (the JSON list's
 * rows and order: value DESC, holder DESC, id DESC), at most the export limit; the balance in
 * whole tokens (value / 10^decimals, exact). As Blockscout, the period and filter parameters are
 * accepted and not applied (a holder list has no period). Unknown token → 404.
 */
import * as E from 'fp-ts/lib/Either.js';
import { csvBody, CsvText, CSV_EXPORT_LIMIT, EXPORT_QUERY, keysetPages, xsdDecimal } from '../csv/export.ts';
import { notFound } from '../errors.ts';
import { addressHash } from '../params/codecs.ts';
import type { CurrentTokenBalance, TokenHolderCursor } from '../ports.ts';
import { checksum } from '../render/format.ts';
import { defineEndpoint } from './endpoint.ts';

export const HOLDER_CSV_COLUMNS = ['HolderAddress', 'Balance'] as const;

export const tokenHoldersCsv = defineEndpoint({
  route: '/tokens/{address_hash_param}/holders/csv',
  summary: 'Export a token’s holders as CSV (streamed)',
  path: { address_hash_param: addressHash },
  query: EXPORT_QUERY,
  response: CsvText,
  produces: 'text/csv',
  handler:
    ({ ds, csvExportLimit }) =>
    ({ path }) =>
    async () => {
      const tokenAddress = path.address_hash_param;
      const token = await ds.getToken(tokenAddress);
      if (token === null) return E.left(notFound);
      const pages = keysetPages<CurrentTokenBalance, TokenHolderCursor>(
        (after, limit) => ds.listTokenHolders({ tokenAddress }, { after, limit, order: 'desc' }),
        (b) => ({ value: b.value, holder: b.holder, tokenId: b.tokenId }),
        csvExportLimit ?? CSV_EXPORT_LIMIT,
      );
      return E.right(
        csvBody(`holders_${tokenAddress}.csv`, HOLDER_CSV_COLUMNS, pages, async (rows) =>
          rows.map((b) => [checksum(b.holder), xsdDecimal(b.value, token.decimals)]),
        ),
      );
    },
});
