/** Command-line values shared by several commands. */

/** A TCP port (0 picks a free one); `fallback` when the option is absent. */
export function parsePort(value: string | undefined, fallback = 3000): number {
  const port = Number(value ?? String(fallback));
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--port: not a port: ${value}`);
  return port;
}
