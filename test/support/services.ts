import net from 'node:net';

export const TEST_DATABASE_ADMIN_URL =
  process.env.TEST_DATABASE_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
export const TEMPLATE_DATABASE = 'stagelight_test_template';

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
