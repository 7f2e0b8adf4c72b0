import { isIP } from 'node:net';
import { z } from 'zod';
import { gstNumberDigits, isValidGstNumber } from '../contracts/gst/ird-number.ts';

// The one place that reads process.env (enforced by lint). Every name is in .env.example;
// defaults work on a developer machine with local PostgreSQL and Redis.

const optional = z
  .string()
  .optional()
  .transform((value) => (value === undefined || value.trim() === '' ? undefined : value.trim()));

const flag = z
  .enum(['true', 'false', '1', '0', ''])
  .optional()
  .transform((value) => value === 'true' || value === '1');

const column = z
  .string()
  .regex(/^[A-Za-z]{1,3}$/, 'must be a column letter such as A or C')
  .transform((value) => value.toUpperCase());

/**
 * Which proxies may name the client in X-Forwarded-For: none (unset: the socket's address), a hop
 * count, or addresses/subnets (and proxy-addr's names loopback, linklocal, uniquelocal).
 */
const trustProxy = optional.pipe(
  z
    .string()
    .optional()
    .transform((value, ctx) => {
      if (value === undefined || value === 'false' || value === '0') return false;
      if (/^\d+$/.test(value)) return Number(value);
      const entries = value.split(',').map((entry) => entry.trim());
      const named = new Set(['loopback', 'linklocal', 'uniquelocal']);
      const bad = entries.filter((entry) => !named.has(entry) && !isIP(entry.replace(/\/\d+$/, '')));
      if (bad.length) {
        ctx.addIssue({
          code: 'custom',
          message: `must be a hop count or a list of addresses/subnets, not ${bad.join(', ')}`,
        });
      }
      return entries;
    }),
);

/** The site is plainly a developer's own: development fallbacks are allowed (see parseConfig). */
const localHosts = new Set(['localhost', '127.0.0.1', '[::1]']);

const envSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    PUBLIC_URL: optional,
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    DATABASE_URL: z.string().default('postgres://postgres@127.0.0.1:5432/stagelight'),
    REDIS_URL: z.string().default('redis://127.0.0.1:6379'),
    QUEUE_PREFIX: z.string().default('bull'),
    TRUST_PROXY: trustProxy,

    ADMIN_PASSWORD_HASH: optional,
    ADMIN_PASSWORD: optional,
    SESSION_SECRET: optional.refine(
      (value) => value === undefined || Buffer.byteLength(value) >= 32,
      'SESSION_SECRET must be at least 32 bytes (openssl rand -hex 32)',
    ),

    STORAGE_DRIVER: z.enum(['local', 's3']).default('local'),
    STORAGE_DIR: z.string().default('data/storage'),
    IMAGES_DIR: z.string().default('web/public-images'),
    IMAGE_CACHE_DIR: z.string().default('data/image-cache'),
    S3_BUCKET: optional,
    S3_REGION: z.string().default('ap-southeast-2'),
    S3_ENDPOINT: optional,
    S3_FORCE_PATH_STYLE: flag,
    AWS_ACCESS_KEY_ID: optional,
    AWS_SECRET_ACCESS_KEY: optional,

    STRIPE_SECRET_KEY: optional,
    STRIPE_WEBHOOK_SECRET: optional,
    STRIPE_API_URL: optional.pipe(z.url().optional()),
    CURRENCY: z
      .string()
      .regex(/^[a-zA-Z]{3}$/)
      .default('nzd')
      .transform((value) => value.toLowerCase()),

    GOOGLE_SHEET_ID: optional,
    GOOGLE_SHEET_RANGE: z.string().default('A:C'),
    GOOGLE_SERVICE_ACCOUNT_JSON: optional,
    GOOGLE_API_KEY: optional,
    GOOGLE_API_URL: optional.pipe(z.url().optional()),
    ORDER_LINKS_CSV: optional,
    SYNC_CRON: optional,
    SHEET_NAME_COLUMN: column.default('A'),
    SHEET_LINK_COLUMN: column.default('C'),

    SMTP_URL: optional,
    /** Production without SMTP must say so: e-mails are then only logged. */
    MAIL_DISABLED: flag,
    MAIL_FROM: z.string().default('Stagelight Studio <bookings@stagelight.example>'),
    OWNER_EMAIL: optional,
    PUBLIC_CONTACT_EMAIL: optional,

    APP_URL: optional.pipe(z.url().optional()),
    ANALYTICS_DOMAIN: optional,
    ANALYTICS_SCRIPT_URL: optional.pipe(z.url().optional()),

    // GST (the owner's settings screen overrides these once saved; docs/decisions/029).
    GST_REGISTERED: flag,
    GST_NUMBER: optional.pipe(
      z
        .string()
        .optional()
        .refine((value) => value === undefined || isValidGstNumber(value), 'not a valid IRD/GST number')
        .transform((value) => (value === undefined ? undefined : (gstNumberDigits(value) ?? undefined))),
    ),
    GST_LEGAL_NAME: z.string().default('Stagelight Studio'),
    GST_ADDRESS: z.string().default(''),
    /** Percent, e.g. 15. */
    GST_RATE: z.coerce.number().min(0).max(100).default(15),

    METRICS_TOKEN: optional,
    /** The worker has no other HTTP server; its /metrics listens here (only with METRICS_TOKEN). */
    WORKER_METRICS_PORT: z.coerce.number().int().min(0).max(65535).default(9464),
    /** Where it listens: this machine only unless set (0.0.0.0 for a scraper in another container). */
    WORKER_METRICS_HOST: optional.transform((value) => value ?? '127.0.0.1'),
    JOB_LOCK_MS: z.coerce.number().int().min(1_000).default(30_000),
    SWEEP_INTERVAL_MS: z.coerce.number().int().min(500).default(60_000),

    // Video processing in the worker (docs/decisions/022). Unset paths: Debian's ffmpeg when installed,
    // else the binaries inside @ffmpeg-installer/ffmpeg and @ffprobe-installer/ffprobe.
    FFMPEG_PATH: optional,
    FFPROBE_PATH: optional,
    VIDEO_CONCURRENCY: z.coerce.number().int().min(1).max(16).default(1),
    /** Longer files are refused: 4 hours covers a whole show. */
    VIDEO_MAX_DURATION_SECONDS: z.coerce
      .number()
      .int()
      .min(1)
      .default(4 * 3600),
    /** Where files being processed are kept; emptied at worker start. Default: the system's temp folder. */
    VIDEO_TMP_DIR: optional,
    /** Room left on the temp disk after a download, for the outputs (MB). */
    VIDEO_MIN_FREE_MB: z.coerce.number().int().min(0).default(1_024),

    // What is kept and for how long (the privacy page says the same; docs/decisions/030).
    /** Enquiries (the contact form) are deleted this many days after they arrived: two years. */
    RETENTION_ENQUIRY_DAYS: z.coerce.number().int().min(30).max(3_650).default(730),
    /** Sync runs and other processing records, and failed jobs: 30 days. */
    RETENTION_JOB_RECORD_DAYS: z.coerce.number().int().min(1).max(365).default(30),
  })
  .superRefine((env, ctx) => {
    if (env.GST_REGISTERED && !env.GST_NUMBER)
      ctx.addIssue({
        code: 'custom',
        path: ['GST_NUMBER'],
        message: 'GST_NUMBER is required with GST_REGISTERED',
      });
    if (env.NODE_ENV !== 'production') return;
    // Left unset, receipts, Stripe's return links and the address visitors see would be development ones.
    const required = [
      'SESSION_SECRET',
      'ADMIN_PASSWORD_HASH',
      'PUBLIC_URL',
      'OWNER_EMAIL',
      'PUBLIC_CONTACT_EMAIL',
    ];
    for (const name of required as Array<keyof typeof env>) {
      if (!env[name])
        ctx.addIssue({ code: 'custom', path: [name], message: `${name} is required in production` });
    }
    // http only for a site plainly on this machine (docker-compose, the benches).
    if (
      env.PUBLIC_URL &&
      !/^(https:\/\/|http:\/\/(localhost|127\.0\.0\.1)(:\d+)?(\/|$))/.test(env.PUBLIC_URL)
    )
      ctx.addIssue({
        code: 'custom',
        path: ['PUBLIC_URL'],
        message: 'PUBLIC_URL must start with https:// in production',
      });
    if (!env.SMTP_URL && !env.MAIL_DISABLED)
      ctx.addIssue({
        code: 'custom',
        path: ['SMTP_URL'],
        message: 'SMTP_URL is required in production (or MAIL_DISABLED=true to only log e-mails)',
      });
    if (env.ADMIN_PASSWORD) {
      ctx.addIssue({
        code: 'custom',
        path: ['ADMIN_PASSWORD'],
        message: 'ADMIN_PASSWORD is for development only; set ADMIN_PASSWORD_HASH (npm run hash-password)',
      });
    }
    if (env.STORAGE_DRIVER === 's3' && !env.S3_BUCKET) {
      ctx.addIssue({
        code: 'custom',
        path: ['S3_BUCKET'],
        message: 'S3_BUCKET is required when STORAGE_DRIVER=s3',
      });
    }
  });

export type Env = z.infer<typeof envSchema>;

/** The development defaults of the admin login and session signing (never used in production). */
export const DEV_ADMIN_PASSWORD = 'stagelight-admin';
const DEV_SESSION_SECRET = 'development-session-secret-not-for-production';

export interface Config extends Env {
  SESSION_SECRET: string;
  PUBLIC_URL: string;
  OWNER_EMAIL: string;
  PUBLIC_CONTACT_EMAIL: string;
  secureCookies: boolean;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

export function parseConfig(source: Record<string, string | undefined> = process.env): Config {
  // An empty assignment in .env (`PORT=`) means "use the default", as if it were not set.
  const present = Object.fromEntries(Object.entries(source).filter(([, value]) => value?.trim()));
  const result = envSchema.safeParse(present);
  if (!result.success) {
    const lines = result.error.issues.map((issue) => `  ${issue.path.join('.') || 'env'}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const env = result.data;
  const ownerEmail = env.OWNER_EMAIL ?? 'owner@stagelight.example';
  const publicUrl = (env.PUBLIC_URL ?? `http://localhost:${env.PORT}`).replace(/\/+$/, '');
  // Development fallbacks (a known password and secret) only where nobody else can reach the site.
  const local =
    present.NODE_ENV === 'development' ||
    present.NODE_ENV === 'test' ||
    (URL.canParse(publicUrl) && localHosts.has(new URL(publicUrl).host.replace(/:\d+$/, '')));
  if (!local) {
    const missing = [
      ...(env.SESSION_SECRET ? [] : ['SESSION_SECRET']),
      ...(env.ADMIN_PASSWORD_HASH || env.ADMIN_PASSWORD ? [] : ['ADMIN_PASSWORD_HASH']),
    ];
    if (missing.length) {
      throw new ConfigError(
        `Invalid configuration:\n${missing.map((name) => `  ${name}: required unless PUBLIC_URL is on localhost or NODE_ENV is development or test`).join('\n')}`,
      );
    }
  }
  return {
    ...env,
    ADMIN_PASSWORD:
      env.ADMIN_PASSWORD ??
      (env.NODE_ENV !== 'production' && local && !env.ADMIN_PASSWORD_HASH ? DEV_ADMIN_PASSWORD : undefined),
    SESSION_SECRET: env.SESSION_SECRET ?? DEV_SESSION_SECRET,
    PUBLIC_URL: publicUrl,
    OWNER_EMAIL: ownerEmail,
    PUBLIC_CONTACT_EMAIL: env.PUBLIC_CONTACT_EMAIL ?? ownerEmail,
    secureCookies: publicUrl.startsWith('https://'),
  };
}

let cached: Config | undefined;

/** The process's configuration, parsed once. Entry points call this; libraries take a Config argument. */
export function loadConfig(): Config {
  cached ??= parseConfig(process.env);
  return cached;
}

/** Whether e-mails really go out (SMTP_URL set and not switched off); otherwise they are only logged. */
export const mailConfigured = (config: Config): boolean => Boolean(config.SMTP_URL) && !config.MAIL_DISABLED;

/** Where the order-link sync reads from, or null when neither a sheet nor a CSV is configured. */
export function orderLinkSource(config: Config): 'sheet' | 'csv' | null {
  if (config.GOOGLE_SHEET_ID && (config.GOOGLE_SERVICE_ACCOUNT_JSON || config.GOOGLE_API_KEY)) return 'sheet';
  if (config.ORDER_LINKS_CSV) return 'csv';
  return null;
}
