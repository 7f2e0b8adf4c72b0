import net from 'node:net';

/**
 * A TCP proxy in front of PostgreSQL or Redis that a drill can take down and bring back, so an
 * outage hits only the processes under test (not every other test using the real server).
 */
export interface OutageProxy {
  port: number;
  url: (base: string) => string;
  /** Drop every open connection and refuse new ones. */
  down(): void;
  up(): void;
  close(): Promise<void>;
}

export async function startOutageProxy(target: { host: string; port: number }): Promise<OutageProxy> {
  let available = true;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    if (!available) {
      client.destroy();
      return;
    }
    const upstream = net.connect(target.port, target.host);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => {
        client.destroy();
        upstream.destroy();
      });
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  return {
    port,
    url(base) {
      const url = new URL(base);
      url.hostname = '127.0.0.1';
      url.port = String(port);
      return url.toString();
    },
    down() {
      available = false;
      for (const socket of sockets) socket.destroy();
    },
    up() {
      available = true;
    },
    close() {
      available = false;
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
