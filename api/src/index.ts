import { createServer } from 'node:http';
import { loadConfig } from '@app/shared/config';
import { closeDeps, createDeps } from './deps.ts';
import { createRequestHandler } from './app.ts';
import { loadPageRenderer } from './site/web.ts';

const SHUTDOWN_LIMIT_MS = 10_000;

const config = loadConfig();
const deps = createDeps(config);
const server = createServer(createRequestHandler(deps));
server.keepAliveTimeout = 65_000;

await loadPageRenderer(deps.logger);
server.listen(config.PORT, () => {
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.PORT;
  deps.logger.info({ port }, `api listening on http://localhost:${port}`);
});

let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  deps.logger.info({ signal }, 'api shutting down');
  setTimeout(() => {
    deps.logger.error('shutdown took too long; exiting');
    process.exit(1);
  }, SHUTDOWN_LIMIT_MS).unref();
  // Stop taking connections, let in-flight requests finish, then close pools. Keep-alive connections
  // become idle one by one as their last response goes out; close each as soon as it does.
  server.close();
  // Buyers' status requests held for their purchase answer now, with what the row says.
  deps.purchaseWaiters.close();
  setInterval(() => server.closeIdleConnections(), 50).unref();
  await new Promise<void>((resolve) => server.on('close', resolve));
  await closeDeps(deps);
  process.exit(0);
}

process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));
