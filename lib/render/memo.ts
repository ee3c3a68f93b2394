/** A bounded memo for pure functions of a string (oldest entries evicted first). */
export function memoize<R>(fn: (key: string) => R, options: { readonly max: number; readonly maxKeyLength: number }): (key: string) => R {
  const cache = new Map<string, R>();
  return (key: string): R => {
    if (key.length > options.maxKeyLength) return fn(key);
    const hit = cache.get(key);
    if (hit !== undefined || cache.has(key)) return hit as R;
    const value = fn(key);
    if (cache.size >= options.max) cache.delete(cache.keys().next().value as string);
    cache.set(key, value);
    return value;
  };
}
