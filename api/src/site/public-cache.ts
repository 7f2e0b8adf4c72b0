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
 * Bytes kept at most, for lists (body and gzip copy) and for values (measured as JSON): a large
 * library has thousands of showcase pages and endless searches, and a rendered page is tens of KB,
 * so a count would not bound memory. The oldest kept goes first. Values (parsed rows and rendered
 * pages) take 2-3 times their JSON size on the heap.
 */
export const MAX_KEPT_BYTES = { lists: 12 * 1024 * 1024, values: 8 * 1024 * 1024 };

/** A map of kept copies that drops the oldest once their bytes pass its budget. */
export class Kept<V> {
  private readonly map = new Map<string, { value: V; bytes: number }>();
  private total = 0;

  constructor(private readonly budget: number) {}

  get bytes(): number {
    return this.total;
  }

  get(key: string): V | undefined {
    return this.map.get(key)?.value;
  }

  set(key: string, value: V, bytes: number): void {
    this.delete(key);
    if (bytes > this.budget) return;
    for (const [oldest, kept] of this.map) {
      if (this.total + bytes <= this.budget) break;
      this.map.delete(oldest);
      this.total -= kept.bytes;
    }
    this.map.set(key, { value, bytes });
    this.total += bytes;
  }

  delete(key: string): void {
    const kept = this.map.get(key);
    if (!kept) return;
    this.map.delete(key);
    this.total -= kept.bytes;
  }

  clear(): void {
    this.map.clear();
    this.total = 0;
  }
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

const etagOf = (body: Buffer) => `"${createHash('sha1').update(body).digest('base64url')}"`;

export type ServedObserver = (method: string, route: string, status: number, seconds: number) => void;

/**
 * The public lists, kept in memory and answered before Express (decision record 010): a list read
 * from PostgreSQL is kept with the content version it was read under, and is served from memory
 * only after Redis confirms that version is still current, so a write on any replica (which bumps
 * the version before it answers) is seen at once everywhere. Without Redis, reads go to PostgreSQL.
 */
export class PublicCache {
  private readonly entries = new Kept<Entry>(MAX_KEPT_BYTES.lists);
  private readonly values = new Kept<{ version: string; storedAt: number; value: unknown }>(
    MAX_KEPT_BYTES.values,
  );
  /** Lists being read, by address, with the content version they are read under. */
  private readonly filling = new Map<
    string,
    { version: Promise<string | undefined>; entry: Promise<Entry | undefined> }
  >();

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
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    const url = req.url ?? '';
    let entry = this.entries.get(url);
    if (entry && (Date.now() - entry.storedAt > MAX_AGE_MS || this.redis.status !== 'ready')) {
      this.entries.delete(url);
      entry = undefined;
    }
    // A list being read when this request came waits for that read, not for its own: a popular
    // search asked by fifty visitors at once costs one query, and none of them counts against the
    // per-address limit (as none served from memory does).
    const filling = entry ? undefined : this.filling.get(url);
    if (!entry && !filling) return next();
    const started = performance.now();
    const answer = (version: string, current: Entry | undefined) => {
      if (current?.version !== version) {
        if (entry) this.entries.delete(url);
        return next();
      }
      const status = this.write(req, res, current);
      this.observe(req.method!, current.route, status, (performance.now() - started) / 1000);
    };
    this.version().then(
      (version) => {
        if (entry || !filling) return answer(version, entry);
        // A read that failed (or found no version): this request tries its own.
        void filling.version
          .then((read) => (read === version ? filling.entry.catch(() => undefined) : undefined))
          .then((read) => answer(version, read));
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
   * in between makes the kept copy outdated rather than wrongly current. Requests for a list that is
   * being read wait for that read rather than each reading it: fifty visitors asking for a popular
   * search at once, or just after a write, cost one query.
   */
  async respond(req: Request, res: Response, url: string, load: () => Promise<unknown>): Promise<void> {
    const kept = req.originalUrl === url;
    const pending = kept ? this.filling.get(url) : undefined;
    const reading = this.version().catch(() => undefined);
    if (kept && !pending) {
      // Registered before the version is read, so that requests arriving meanwhile wait for it.
      const filled = {
        version: reading,
        entry: reading.then((version) =>
          version === undefined ? undefined : this.fill(req, res, url, version, load),
        ),
      };
      this.filling.set(url, filled);
      try {
        const entry = await filled.entry;
        if (entry) return void res.send(entry.body);
      } finally {
        if (this.filling.get(url) === filled) this.filling.delete(url);
      }
      return this.sendUnkept(res, load);
    }
    const version = await reading;
    if (version === undefined || !kept) return this.sendUnkept(res, load);
    // Another request is reading this list under the current version: its answer is ours.
    const waited =
      (await pending?.version) === version ? await pending!.entry.catch(() => undefined) : undefined;
    if (waited) {
      res.set(waited.headers);
      return void res.send(waited.body);
    }
    res.send((await this.fill(req, res, url, version, load)).body);
  }

  private async sendUnkept(res: Response, load: () => Promise<unknown>): Promise<void> {
    const body = Buffer.from(JSON.stringify(await load()));
    res.set({ 'Cache-Control': 'public, no-cache', ETag: etagOf(body) }).type('json');
    res.send(body);
  }

  private async fill(
    req: Request,
    res: Response,
    url: string,
    version: string,
    load: () => Promise<unknown>,
  ): Promise<Entry> {
    const body = Buffer.from(JSON.stringify(await load()));
    res.set({ 'Cache-Control': 'public, no-cache', ETag: etagOf(body) }).type('json');
    const headers = Object.fromEntries(
      Object.entries(res.getHeaders()).filter(([name]) => !perResponse.has(name)),
    );
    const gzip = body.length >= GZIP_MIN_BYTES ? gzipSync(body) : undefined;
    const entry: Entry = {
      version,
      storedAt: Date.now(),
      route: req.route?.path ? String(req.route.path) : url,
      etag: headers.etag as string,
      headers,
      body,
      gzip,
    };
    // About 1 KB for the headers and the entry itself.
    this.entries.set(url, entry, url.length + body.length + (gzip?.length ?? 0) + 1024);
    return entry;
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
    else {
      const bytes = key.length + Buffer.byteLength(JSON.stringify(value) ?? '');
      this.values.set(key, { version, storedAt: Date.now(), value }, bytes);
    }
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
