import closeWithGrace from 'close-with-grace';
import type { FastifyInstance } from 'fastify';

/**
 * Listens and shuts down gracefully: on SIGTERM/SIGINT the server stops accepting connections, lets
 * in-flight requests finish (up to 10 s) and closes its pools through onClose hooks.
 */
export async function runServer(app: FastifyInstance, host: string, port: number): Promise<void> {
  closeWithGrace({ delay: 10_000 }, async ({ err, signal }) => {
    if (err) app.log.error({ err }, 'shutting down after an error');
    else app.log.info({ signal }, 'shutting down');
    await app.close();
  });
  try {
    await app.listen({ host, port });
  } catch (err) {
    app.log.error({ err }, `could not listen on ${host}:${port}`);
    process.exit(1);
  }
}
