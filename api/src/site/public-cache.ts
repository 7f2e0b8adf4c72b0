import { createHash } from 'node:crypto';
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { gzipSync } from 'node:zlib';
import type { Request, Response } from 'express';
import fresh from 'fresh';
import type { Redis } from 'ioredis';
import type { Logger } from '@app/shared/logger';
import { markPublicContentChanged, readPublicContentVersion } from '@app/shared/cache-version';
import { withRedisTimeout } from '@app/shared/redis';
import { requestIdOf } from '../http/request-log.ts';

/** A kept list is read again from PostgreSQL at least this often, whatever Redis says. */
const MAX_AGE_MS = 10_000;
/** How long a read waits for Redis before going to PostgreSQL instead. */
const VERSION_WAIT_MS = 100;
const GZIP_MIN_BYTES = 1024;
/**
 * Lists and values kept at most, each: a large library has thousands of showcase pages, and a
 * rendered page is tens of KB. The oldest kept goes first.
 */
const MAX_KEPT = 400;

function keep<V>(map: Map<string, V>, key: string, value: V): void {
  map.delete(key);
  if (map.size >= MAX_KEPT) map.delete(map.keys().next().value!);
  map.set(key, value);
}
/** Headers that belong to the one response that filled an entry, not to the ones served from it. */
const perResponse = new Set([
  'x-request-id',
  'content-length',
  'content-encoding',
  'set-cookie',
  'date',
  'connection',
  'keep-alive',
  'vary',
]);

interface Entry {
  version: string;
  storedAt: number;
  route: string;
  etag: string;
  headers: OutgoingHttpHeaders;
  body: Buffer;
  gzip: Buffer | undefined;
}

export type ServedObserver = (method: string, route: string, status: number, seconds: number) => void;

/**
 * The public lists, kept in memory and answered before Express (decision record 010): a list read
 * from PostgreSQL is kept with the content version it was read under, and is served from memory
 * only after Redis confirms that version is still current, so a write on any replica (which bumps
 * the version before it answers) is seen at once everywhere. Without Redis, reads go to PostgreSQL.
 */
export class PublicCache {
  private readonly entries = new Map<string, Entry>();
  private readonly values = new Map<string, { version: string; storedAt: number; value: unknown }>();

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly logger: Logger,
    private readonly observe: ServedObserver = () => {},
  ) {
    // A write made while we could not hear about it must not leave old lists behind.
    redis.on('close', () => this.clear());
  }

  private clear(): void {
    this.entries.clear();
    this.values.clear();
  }

  private version(): Promise<string> {
    return withRedisTimeout(
      this.redis,
      () => readPublicContentVersion(this.redis, this.prefix),
      VERSION_WAIT_MS,
    );
  }

  /** Answers a GET or HEAD for a kept list from memory, or hands the request to `next` (Express). */
  serve(req: IncomingMessage, res: ServerResponse, next: () => void): void {
    const entry = (req.method === 'GET' || req.method === 'HEAD') && this.entries.get(req.url ?? '');
    if (!entry) return next();
    if (Date.now() - entry.storedAt > MAX_AGE_MS || this.redis.status !== 'ready') {
      this.entries.delete(req.url!);
      return next();
    }
    const started = performance.now();
    this.version().then(
      (version) => {
        if (version !== entry.version) {
          this.entries.delete(req.url!);
          return next();
        }
        const status = this.write(req, res, entry);
        this.observe(req.method!, entry.route, status, (performance.now() - started) / 1000);
      },
      () => next(),
    );
  }

  private write(req: IncomingMessage, res: ServerResponse, entry: Entry): number {
    const headers: OutgoingHttpHeaders = {
      ...entry.headers,
      'X-Request-Id': requestIdOf(req),
      Vary: 'Accept-Encoding',
    };
    // The same conditional-request rules Express applies (fresh), so both paths answer alike.
    if (fresh(req.headers, { etag: entry.etag })) {
      res.writeHead(304, headers).end();
      return 304;
    }
    const gzip = entry.gzip && /\bgzip\b/.test(req.headers['accept-encoding'] ?? '');
    const body = gzip ? entry.gzip! : entry.body;
    res.writeHead(200, {
      ...headers,
      'Content-Length': body.length,
      ...(gzip ? { 'Content-Encoding': 'gzip' } : {}),
    });
    res.end(req.method === 'HEAD' ? undefined : body);
    return 200;
  }

  /**
   * Sends a public list as JSON with an ETag (304 when the browser has it already), and keeps it for
   * the next requests of exactly `url`. The version is read before the list, so a write that lands
   * in between makes the kept copy outdated rather than wrongly current.
   */
  async respond(req: Request, res: Response, url: string, load: () => Promise<unknown>): Promise<void> {
    const version = await this.version().catch(() => undefined);
    const body = Buffer.from(JSON.stringify(await load()));
    const etag = `"${createHash('sha1').update(body).digest('base64url')}"`;
    res.set({ 'Cache-Control': 'public, no-cache', ETag: etag }).type('json');
    if (version !== undefined && req.originalUrl === url) {
      const headers = Object.fromEntries(
        Object.entries(res.getHeaders()).filter(([name]) => !perResponse.has(name)),
      );
      keep(this.entries, url, {
        version,
        storedAt: Date.now(),
        route: req.route?.path ? String(req.route.path) : url,
        etag,
        headers,
        body,
        gzip: body.length >= GZIP_MIN_BYTES ? gzipSync(body) : undefined,
      });
    }
    res.send(body);
  }

  /**
   * A value read from what admin writes change (a video's row for its stream link), kept under the
   * same rules as the lists: used only while the content version it was read under is current.
   * A value that is not found is not kept.
   */
  async value<T>(key: string, load: () => Promise<T | undefined>): Promise<T | undefined> {
    const version = this.redis.status === 'ready' ? await this.version().catch(() => undefined) : undefined;
    const kept = this.values.get(key);
    if (kept && kept.version === version && Date.now() - kept.storedAt <= MAX_AGE_MS) return kept.value as T;
    const value = await load();
    if (version === undefined || value === undefined) this.values.delete(key);
    else keep(this.values, key, { version, storedAt: Date.now(), value });
    return value;
  }

  /**
   * After a write to what the public lists show. Awaited before the write is answered, so no replica
   * serves the old list afterwards. Should Redis be unreachable, other replicas stop using their
   * copies when their connection drops, and none is older than MAX_AGE_MS in any case.
   */
  async changed(): Promise<void> {
    this.clear();
    await withRedisTimeout(this.redis, () => markPublicContentChanged(this.redis, this.prefix)).catch(
      (error: unknown) => this.logger.warn({ err: error }, 'public content version not bumped'),
    );
  }
}
