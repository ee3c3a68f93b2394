/**
 * The rows of token_search (migration 010: what the /tokens list orders and matches on, one
 * row per token) derived from tokens and token_holder_counts: holders_rank (= −holders_count,
 * so the list's order is ascending in every column), name_null (1 for a NULL name: those sort
 * last), name_key (the name, '' for NULL), the ASCII-lower-cased name and symbol (prefix
 * ranges). The writer rewrites the rows of the tokens a write touched (write/tokens.ts).
 */
import type { Dialect } from './dialect.ts';

/** The token_search rows of the tokens whose address satisfies `where` (SQL over `t`). */
export function tokenSearchSelect(d: Dialect, where: string): string {
  return `SELECT t."address", t."type", -COALESCE(h."holders_count", 0), CASE WHEN t."name" IS NULL THEN 1 ELSE 0 END,
    COALESCE(t."name", ''), ${d.asciiLower('t."name"')}, ${d.asciiLower('t."symbol"')}
    FROM tokens t LEFT JOIN token_holder_counts h ON h."token_address" = t."address" WHERE ${where}`;
}

/** The columns tokenSearchSelect gives, in its order. */
export const TOKEN_SEARCH_COLUMNS = '("address", "type", "holders_rank", "name_null", "name_key", "name_lower", "symbol_lower")';
