/** Whether a command's port can be listened on, checked before a long setup (`scoutkit demo`). */
import { createServer } from 'node:net';

/** The error of a port in use, naming the flag that moves it. */
export class PortInUseError extends Error {
  override readonly name = 'PortInUseError';
  constructor(
    readonly port: number,
    readonly host: string,
  ) {
    super(`port ${port} on ${host} is in use: stop what listens there, or choose another with --port <n> (--port 0 picks a free one)`);
  }
}

/** Resolves when `port` on `host` can be listened on now (port 0 always can); rejects with PortInUseError or the bind's own error. */
export async function assertPortFree(port: number, host: string): Promise<void> {
  if (port === 0) return;
  const probe = createServer();
  try {
    await new Promise<void>((resolve, reject) => {
      probe.once('error', reject);
      probe.listen({ port, host, exclusive: true }, () => resolve());
    });
  } catch (e) {
    throw asPortError(e, port, host);
  }
  await new Promise<void>((resolve) => probe.close(() => resolve()));
}

/** A listen error as PortInUseError when the port was taken; any other error as it is. */
export function asPortError(e: unknown, port: number, host: string): unknown {
  return (e as NodeJS.ErrnoException | null)?.code === 'EADDRINUSE' ? new PortInUseError(port, host) : e;
}
