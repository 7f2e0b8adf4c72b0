import { randomBytes } from 'node:crypto';
import { mkdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { createProducer, createRedis, type Producer } from '@app/shared/queue';
import type { Job } from 'bullmq';
import type { HandlerMap, WorkerContext } from '../../worker/src/context.ts';
import type { adminAgent, TestApp } from './app.ts';
import { launchBrowser, type Browser } from './browser.ts';
import { startFakeSheets, type FakeSheets, type FakeSheetsOptions } from './fake-sheets.ts';
import { startFakeStripe, type FakeStripe } from './fake-stripe.ts';
import { startApi, startWorker, type RunningApi, type RunningProcess } from './processes.ts';
import { startTestS3, type TestS3 } from './s3.ts';
import { startSmtpCapture, type CapturedMail } from './smtp.ts';
import { createTestEnv, type TestEnv } from './test-env.ts';
import type { TestWorker } from './worker.ts';

/** What a test file asks its world for; everything is off unless asked. */
export interface WorldOptions {
  /**
   * Config overrides. A function runs once the fakes and the world's folder exist (after any
   * `beforeAll` the file registered earlier), so it can name their URLs and files.
   */
  env?:
    | Record<string, string>
    | ((world: WorldReady) => Record<string, string> | Promise<Record<string, string>>);
  /** Rows written before the api, worker or processes start (spawned processes read them at start). */
  seed?: (env: TestEnv) => Promise<unknown>;
  /**
   * The fake Stripe; its key, webhook secret and URL go into the config, and after each test no call
   * may have gone to an endpoint it does not know.
   */
  stripe?: boolean;
  /** A capturing SMTP server; its URL is SMTP_URL. */
  smtp?: boolean;
  /** The fake Google Sheets endpoint; its key and URL go into the config (the sheet id stays the file's). */
  sheets?: boolean | FakeSheetsOptions;
  /** A local S3 server (s3rver) with the config for STORAGE_DRIVER=s3 against it. */
  s3?: boolean;
  /** The real api in this process (use `api.app` with supertest). */
  api?: boolean;
  /** A supertest agent logged in as the owner (implies `api`). */
  admin?: boolean;
  /** The worker's real queues in this process; an object swaps some handlers. */
  worker?: boolean | Partial<HandlerMap>;
  /** What the worker's handlers receive, without queues listening, to call a handler directly. */
  context?: boolean;
  /** A producer (and its Redis connection) on the world's queue prefix, as the api enqueues. */
  producer?: boolean;
  /** The built api or worker as a process instead: `api` is then a RunningApi, `worker` a RunningProcess. */
  processes?: { api?: boolean; worker?: boolean };
  /** Chromium, for browser tests. */
  browser?: boolean;
  /** How long setting the world up may take (ms); the file's hookTimeout otherwise. */
  timeout?: number;
}

/** The shop in a browser: the built api as a process, the worker here, the fake Stripe and SMTP, Chromium. */
export const shopInBrowser = {
  stripe: true,
  smtp: true,
  worker: true,
  processes: { api: true },
  browser: true,
} as const satisfies WorldOptions;

/** What `env` as a function is handed. */
export interface WorldReady {
  /** A folder of the file's own, removed at the end (pictures, CSV files...). */
  dir: string;
  stripe: FakeStripe;
  smtp: CapturedMail;
  sheets: FakeSheets;
  s3: TestS3;
}

export interface TestWorld extends WorldReady {
  env: TestEnv;
  api: TestApp | RunningApi;
  agent: Awaited<ReturnType<typeof adminAgent>>;
  worker: TestWorker | RunningProcess;
  /** Typed as a handler's argument; it has no `job`: a handler that reads one needs it passed in. */
  context: WorkerContext & { job: Job };
  producer: Producer;
  redis: ReturnType<typeof createRedis>;
  browser: Browser;
}

/** The world for these options: `api` and `worker` are processes when `processes` says so. */
export type World<Options extends WorldOptions> = Omit<TestWorld, 'api' | 'worker'> & {
  api: Options extends { processes: { api: true } } ? RunningApi : TestApp;
  worker: Options extends { processes: { worker: true } } ? RunningProcess : TestWorker;
};

type Parts = { [Key in keyof TestWorld]?: TestWorld[Key] };

/**
 * One test file's world (decision 026): the database, queue prefix and storage of `createTestEnv`,
 * plus the parts asked for, set up in `beforeAll` and taken down in `afterAll` of the suite it is
 * called in. The handles can be destructured at once; each reaches its part once the set-up ran:
 *
 *     const { env, api, agent } = useTestWorld({ admin: true });
 *
 * The api and worker modules are loaded only when asked for, so a worker test loads no api code.
 */
export function useTestWorld<Options extends WorldOptions = WorldOptions>(
  options: Options = {} as Options,
): World<Options> {
  // Named now, so tests can build paths in it before it exists.
  const dir = path.join(os.tmpdir(), `stagelight-world-${randomBytes(6).toString('hex')}`);
  const parts: Parts = { dir };
  const closers: Array<() => unknown> = [];

  beforeAll(async () => {
    await mkdir(dir, { recursive: true });
    closers.push(() => rm(dir, { recursive: true, force: true }));
    const [stripe, smtp, sheets, s3] = await Promise.all([
      options.stripe ? startFakeStripe() : undefined,
      options.smtp ? startSmtpCapture() : undefined,
      options.sheets ? startFakeSheets(options.sheets === true ? {} : options.sheets) : undefined,
      options.s3 ? startTestS3() : undefined,
    ]);
    for (const fake of [stripe, smtp, sheets, s3]) if (fake) closers.push(() => fake.close());
    Object.assign(parts, { stripe, smtp, sheets, s3 });

    const overrides: Record<string, string> = {
      ...(stripe && {
        STRIPE_SECRET_KEY: stripe.secretKey,
        STRIPE_WEBHOOK_SECRET: stripe.webhookSecret,
        STRIPE_API_URL: stripe.url,
      }),
      ...(smtp && { SMTP_URL: smtp.url }),
      ...(sheets && { GOOGLE_API_KEY: sheets.apiKey, GOOGLE_API_URL: sheets.url }),
      ...s3?.env,
      ...(typeof options.env === 'function' ? await options.env(parts as WorldReady) : options.env),
    };
    const env = await createTestEnv(overrides);
    closers.push(() => env.cleanup());
    parts.env = env;
    await options.seed?.(env);

    if (options.producer) {
      const redis = createRedis(env.config.REDIS_URL, 'client');
      const producer = createProducer(redis, env.config.QUEUE_PREFIX);
      closers.push(() => redis.disconnect());
      closers.push(() => producer.close());
      Object.assign(parts, { redis, producer });
    }
    if ((options.api || options.admin) && options.processes?.api) {
      throw new Error('test world: an api in this process or as a process, not both');
    }
    if (options.worker && options.processes?.worker) {
      throw new Error('test world: a worker in this process or as a process, not both');
    }
    if (options.api || options.admin) {
      const { adminAgent, createTestApp } = await import('./app.ts');
      const api = createTestApp(env);
      closers.push(() => api.close());
      parts.api = api;
      if (options.admin) parts.agent = await adminAgent(api.app);
    }
    if (options.worker) {
      const { startTestWorker } = await import('./worker.ts');
      const worker = startTestWorker(env, options.worker === true ? {} : options.worker);
      closers.push(() => worker.close());
      parts.worker = worker;
    }
    if (options.context) {
      const { createTestContext } = await import('./worker.ts');
      const { context, close } = createTestContext(env);
      closers.push(close);
      parts.context = context as TestWorld['context'];
    }
    const [api, worker, browser] = await Promise.all([
      options.processes?.api ? startApi(env.env) : undefined,
      options.processes?.worker ? startWorker(env.env) : undefined,
      options.browser ? launchBrowser() : undefined,
    ]);
    // Killed, not stopped: a drill may have left one half-dead, and nothing is asserted after this.
    if (api) closers.push(() => api.stop('SIGKILL'));
    if (worker) closers.push(() => worker.stop('SIGKILL'));
    if (browser) closers.push(() => browser.close());
    Object.assign(parts, { browser }, api && { api }, worker && { worker });
  }, options.timeout);

  if (options.stripe) {
    afterEach(() => {
      if (parts.stripe) expect(parts.stripe.unexpected).toEqual([]);
    });
  }

  afterAll(async () => {
    // Last made, first closed; a failed set-up closes what it had made.
    for (const close of closers.reverse()) await close();
  });

  const handles = Object.fromEntries(
    (
      [
        'stripe',
        'smtp',
        'sheets',
        's3',
        'env',
        'api',
        'agent',
        'worker',
        'context',
        'producer',
        'redis',
        'browser',
      ] as const
    ).map((name) => [name, handle(parts, name)]),
  );
  return { ...handles, dir } as World<Options>;
}

/**
 * A stand-in for one part that forwards to it once it exists, so handles can be destructured where
 * the file declares its world and used in its tests unchanged.
 */
function handle<Key extends keyof TestWorld>(parts: Parts, name: Key): TestWorld[Key] {
  const part = () => {
    const value = parts[name];
    if (value === undefined) {
      throw new Error(`test world: no ${name} (asked for in useTestWorld's options? used before beforeAll?)`);
    }
    return value as object;
  };
  return new Proxy(
    {},
    {
      get(_target, property) {
        const target = part();
        const value = Reflect.get(target, property, target);
        // A method (from the prototype) needs its own `this`; an own function (api.app) stays as it is.
        return typeof value === 'function' && !Object.hasOwn(target, property) ? value.bind(target) : value;
      },
      // The rest forward too, so vi.spyOn(handle, 'method') replaces the part's own method.
      set: (_target, property, value) => Reflect.set(part(), property, value),
      has: (_target, property) => Reflect.has(part(), property),
      defineProperty: (_target, property, descriptor) => Reflect.defineProperty(part(), property, descriptor),
      deleteProperty: (_target, property) => Reflect.deleteProperty(part(), property),
      ownKeys: () => Reflect.ownKeys(part()),
      getPrototypeOf: () => Reflect.getPrototypeOf(part()),
      getOwnPropertyDescriptor(_target, property) {
        const descriptor = Reflect.getOwnPropertyDescriptor(part(), property);
        // A proxy may not call a property non-configurable that its (empty) target lacks.
        return descriptor && { ...descriptor, configurable: true };
      },
    },
  ) as TestWorld[Key];
}
