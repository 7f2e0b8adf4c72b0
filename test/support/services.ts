import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import net from 'node:net';

export const TEST_DATABASE_ADMIN_URL =
  process.env.TEST_DATABASE_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
/**
 * Test databases are named for the checkout they belong to, so two clones (or git worktrees) running
 * tests at once on one PostgreSQL never drop each other's databases as stale.
 */
export const CHECKOUT = createHash('sha256')
  .update(fileURLToPath(new URL('../..', import.meta.url)))
  .digest('hex')
  .slice(0, 6);
export const TEST_DATABASE_PREFIX = `stagelight_test_${CHECKOUT}_`;
export const TEMPLATE_DATABASE = `${TEST_DATABASE_PREFIX}template`;

export function databaseUrl(name: string): string {
  const url = new URL(TEST_DATABASE_ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

/** A TCP port nobody listens on (for "Redis unreachable" tests). */
export async function closedPort(): Promise<number> {
  const port = await freePort();
  return port;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}
