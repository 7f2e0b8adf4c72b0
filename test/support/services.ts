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

// A random start in the block: two checkouts testing side by side (a second worktree) would otherwise
// both try its first port at the same moment.
let nextPort = Math.floor(Math.random() * 1_000);

/**
 * A port for a process a test is about to start (the api, a Redis). Not one the OS hands out for
 * listen(0): between finding such a port free and the process binding it, another test file's process
 * could be given the same one, and a health check would then reach the wrong api. So ports come from
 * below Linux's ephemeral range (32768-60999), a block of 1,000 per vitest worker, in turn.
 */
export async function freePort(): Promise<number> {
  const block = 20_000 + (Number(process.env.VITEST_POOL_ID ?? 0) % 12) * 1_000;
  for (let tries = 0; tries < 1_000; tries++) {
    const port = block + (nextPort++ % 1_000);
    if (await canListen(port)) return port;
  }
  throw new Error(`No free port in ${block}-${block + 999}`);
}

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}
