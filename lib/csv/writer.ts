/**
 * The one CSV writer (RFC 4180): fields separated by commas, records ended by CRLF; a field
 * holding a comma, a double quote, CR or LF is enclosed in double quotes, its quotes doubled.
 * `null` is the empty field. This is the line format Blockscout's exports use (NimbleCSV RFC4180).
 */

/** A cell before formatting: text, a number, or null (the empty field). */
export type CsvCell = string | number | bigint | null;

const NEEDS_QUOTES = /[",\r\n]/;

export function csvField(cell: CsvCell): string {
  if (cell === null) return '';
  const text = typeof cell === 'string' ? cell : cell.toString();
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One record with its CRLF. */
export function csvRecord(cells: readonly CsvCell[]): string {
  return `${cells.map(csvField).join(',')}\r\n`;
}
