import http from 'node:http';

export interface Reply {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/**
 * One HTTP request sent from a chosen loopback address (127.0.0.2, 127.0.0.3, ... are all this
 * machine on Linux), so a test can be several visitors without trusting X-Forwarded-For.
 */
export function requestFrom(
  from: string,
  url: string,
  options: { method?: string; headers?: Record<string, string>; json?: unknown } = {},
): Promise<Reply> {
  const body = options.json === undefined ? undefined : JSON.stringify(options.json);
  return new Promise((resolve, reject) => {
    const request = http.request(
      url,
      {
        method: options.method ?? (body ? 'POST' : 'GET'),
        localAddress: from,
        agent: false,
        headers: {
          ...(body ? { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) } : {}),
          ...options.headers,
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body: Buffer.concat(chunks).toString(),
          }),
        );
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

/**
 * A reverse proxy in front of `target` that appends its client's address to X-Forwarded-For, as
 * nginx's $proxy_add_x_forwarded_for and cloud load balancers do.
 */
export async function startForwardingProxy(target: string): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((incoming, outgoing) => {
    const given = incoming.headers['x-forwarded-for'];
    const forwarded = [given, incoming.socket.remoteAddress].filter(Boolean).join(', ');
    const upstream = http.request(
      new URL(incoming.url ?? '/', target),
      { method: incoming.method, headers: { ...incoming.headers, 'x-forwarded-for': forwarded } },
      (response) => {
        outgoing.writeHead(response.statusCode ?? 502, response.headers);
        response.pipe(outgoing);
      },
    );
    upstream.on('error', () => outgoing.writeHead(502).end());
    incoming.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
