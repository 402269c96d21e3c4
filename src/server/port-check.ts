import { createServer } from 'node:net';

/** Refuses a busy port before the start creates, migrates or seeds anything in DATA_DIR. */
export async function assertPortFree(address: { port: number; host: string }): Promise<void> {
  if (address.port === 0) return;
  await new Promise<void>((resolve, reject) => {
    const probe = createServer();
    probe.once('error', (error: NodeJS.ErrnoException) => {
      reject(
        error.code === 'EADDRINUSE'
          ? new Error(`el puerto ${address.port} ya está en uso: detén lo que lo usa o elige otro con PORT.`)
          : error,
      );
    });
    probe.listen({ port: address.port, host: address.host, exclusive: true }, () => probe.close(() => resolve()));
  });
}
