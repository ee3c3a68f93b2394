/**
 * Name matching shared by the stores and the search: lower-casing of ASCII letters only (what
 * SQLite's lower() and Postgres' lower() under the "C" collation do, so every store agrees),
 * code point order (SQLite's BINARY and Postgres' "C" order on UTF-8), and the exclusive upper
 * bound of a prefix range.
 */

/** `A`–`Z` → `a`–`z`; every other character unchanged. */
export function asciiLower(s: string): string {
  return s.replace(/[A-Z]+/g, (m) => m.toLowerCase());
}

/** Code point order (UTF-8 byte order), not JavaScript's UTF-16 code unit order. */
export function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.codePointAt(i) as number;
    const y = b.codePointAt(i) as number;
    if (x !== y) return x < y ? -1 : 1;
    if (x > 0xffff) i++;
  }
  return a.length < b.length ? -1 : a.length > b.length ? 1 : 0;
}

/**
 * The least string above every string that starts with `prefix` (code point order), so that
 * "starts with prefix" ⇔ prefix ≤ s < bound; null when no such bound exists (every string above
 * prefix starts with it: the prefix is only U+10FFFF characters).
 */
export function prefixBound(prefix: string): string | null {
  const points = [...prefix].map((c) => c.codePointAt(0) as number);
  while (points.length > 0) {
    let last = (points.pop() as number) + 1;
    if (last === 0xd800) last = 0xe000; // no surrogates in a string of code points
    if (last <= 0x10ffff) return String.fromCodePoint(...points, last);
  }
  return null;
}

/** Whether `s`, ASCII-lower-cased, starts with `prefix` (already ASCII-lower-cased). */
export function startsWithLower(s: string | null, prefix: string): boolean {
  return s !== null && asciiLower(s).startsWith(prefix);
}
