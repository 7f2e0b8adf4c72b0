import { describe, expect, it } from 'vitest';
import { ConfigError, DEV_ADMIN_PASSWORD, parseConfig } from './config.ts';

const LONG_SECRET = 'a-session-secret-of-at-least-32-bytes';

describe('config', () => {
  it('has working defaults for a developer machine', () => {
    const config = parseConfig({});
    expect(config.PORT).toBe(3000);
    expect(config.DATABASE_URL).toMatch(/^postgres:\/\/postgres@127\.0\.0\.1:5432\//);
    expect(config.REDIS_URL).toBe('redis://127.0.0.1:6379');
    expect(config.STORAGE_DRIVER).toBe('local');
    expect(config.ADMIN_PASSWORD).toBe(DEV_ADMIN_PASSWORD);
    expect(config.CURRENCY).toBe('nzd');
    expect(config.PUBLIC_CONTACT_EMAIL).toBe(config.OWNER_EMAIL);
    expect(config.secureCookies).toBe(false);
  });

  it('stops production start-up naming each missing secret', () => {
    expect(() => parseConfig({ NODE_ENV: 'production' })).toThrow(ConfigError);
    expect(() => parseConfig({ NODE_ENV: 'production', ADMIN_PASSWORD_HASH: 'scrypt$a$b' })).toThrow(
      /SESSION_SECRET is required in production/,
    );
    expect(() => parseConfig({ NODE_ENV: 'production', SESSION_SECRET: LONG_SECRET })).toThrow(
      /ADMIN_PASSWORD_HASH is required in production/,
    );
  });

  it('uses no development fallback on a site others can reach, whatever NODE_ENV says', () => {
    for (const env of [{}, { NODE_ENV: 'production' }]) {
      const start = () => parseConfig({ ...env, PUBLIC_URL: 'https://stagelight.example.nz' });
      expect(start).toThrow(/SESSION_SECRET/);
      expect(start).toThrow(/ADMIN_PASSWORD_HASH/);
    }
    expect(() => parseConfig({ PUBLIC_URL: 'http://192.0.2.7:3000', SESSION_SECRET: LONG_SECRET })).toThrow(
      /ADMIN_PASSWORD_HASH: required unless PUBLIC_URL is on localhost/,
    );
    // Plainly local, or development/test said out loud: the fallbacks still work.
    expect(parseConfig({ PUBLIC_URL: 'http://127.0.0.1:8080' }).ADMIN_PASSWORD).toBe(DEV_ADMIN_PASSWORD);
    expect(parseConfig({ NODE_ENV: 'test', PUBLIC_URL: 'https://site.test' }).ADMIN_PASSWORD).toBe(
      DEV_ADMIN_PASSWORD,
    );
  });

  it('refuses a session secret shorter than 32 bytes', () => {
    expect(() => parseConfig({ SESSION_SECRET: 'x'.repeat(31) })).toThrow(
      /SESSION_SECRET must be at least 32 bytes/,
    );
    expect(parseConfig({ SESSION_SECRET: LONG_SECRET }).SESSION_SECRET).toBe(LONG_SECRET);
  });

  it('reads TRUST_PROXY as off, a hop count or a list of subnets', () => {
    expect(parseConfig({}).TRUST_PROXY).toBe(false);
    expect(parseConfig({ TRUST_PROXY: '1' }).TRUST_PROXY).toBe(1);
    expect(parseConfig({ TRUST_PROXY: 'loopback, 10.0.0.0/8' }).TRUST_PROXY).toEqual([
      'loopback',
      '10.0.0.0/8',
    ]);
    expect(() => parseConfig({ TRUST_PROXY: 'true' })).toThrow(/TRUST_PROXY: must be a hop count/);
  });

  it('stops production start-up naming each missing site, address and mail setting', () => {
    const complete = {
      NODE_ENV: 'production',
      SESSION_SECRET: LONG_SECRET,
      ADMIN_PASSWORD_HASH: 'scrypt$a$b',
      PUBLIC_URL: 'https://example.nz',
      OWNER_EMAIL: 'owner@example.nz',
      PUBLIC_CONTACT_EMAIL: 'hello@example.nz',
      SMTP_URL: 'smtp://mail.example.nz',
    };
    expect(parseConfig(complete).OWNER_EMAIL).toBe('owner@example.nz');
    for (const name of ['PUBLIC_URL', 'OWNER_EMAIL', 'PUBLIC_CONTACT_EMAIL'] as const) {
      expect(() => parseConfig({ ...complete, [name]: undefined })).toThrow(
        `${name} is required in production`,
      );
    }
    expect(() => parseConfig({ ...complete, SMTP_URL: undefined })).toThrow(
      /SMTP_URL is required in production \(or MAIL_DISABLED=true/,
    );
    expect(parseConfig({ ...complete, SMTP_URL: undefined, MAIL_DISABLED: 'true' }).MAIL_DISABLED).toBe(true);
    expect(() => parseConfig({ ...complete, PUBLIC_URL: 'http://example.nz' })).toThrow(
      /PUBLIC_URL must start with https:\/\//,
    );
    // A site plainly on this machine (docker-compose) may be plain http.
    expect(parseConfig({ ...complete, PUBLIC_URL: 'http://localhost:3000' }).PUBLIC_URL).toBe(
      'http://localhost:3000',
    );
    // Every missing one is named at once.
    expect(() => parseConfig({ NODE_ENV: 'production' })).toThrow(
      /SESSION_SECRET[\s\S]*ADMIN_PASSWORD_HASH[\s\S]*PUBLIC_URL[\s\S]*OWNER_EMAIL[\s\S]*PUBLIC_CONTACT_EMAIL[\s\S]*SMTP_URL/,
    );
  });

  it('refuses the plain development password in production and never defaults it there', () => {
    const secrets = {
      NODE_ENV: 'production',
      SESSION_SECRET: LONG_SECRET,
      ADMIN_PASSWORD_HASH: 'scrypt$a$b',
      OWNER_EMAIL: 'owner@example.nz',
      PUBLIC_CONTACT_EMAIL: 'hello@example.nz',
      MAIL_DISABLED: 'true',
    };
    expect(() => parseConfig({ ...secrets, PUBLIC_URL: 'https://example.nz', ADMIN_PASSWORD: 'x' })).toThrow(
      /ADMIN_PASSWORD is for development only/,
    );
    const config = parseConfig({ ...secrets, PUBLIC_URL: 'https://example.nz/' });
    expect(config.ADMIN_PASSWORD).toBeUndefined();
    expect(config.PUBLIC_URL).toBe('https://example.nz');
    expect(config.secureCookies).toBe(true);
  });

  it('reports bad values by name', () => {
    expect(() => parseConfig({ PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => parseConfig({ SHEET_LINK_COLUMN: 'C1' })).toThrow(/SHEET_LINK_COLUMN/);
  });
});

describe('config from a copied .env.example', () => {
  it('treats empty assignments as unset', () => {
    const config = parseConfig({ PORT: '', DATABASE_URL: '  ', CURRENCY: '' });
    expect(config.PORT).toBe(3000);
    expect(config.DATABASE_URL).toMatch(/^postgres:/);
    expect(config.CURRENCY).toBe('nzd');
  });

  it('reads the GST defaults and refuses a GST number that fails the IRD check digit', () => {
    expect(parseConfig({})).toMatchObject({
      GST_REGISTERED: false,
      GST_RATE: 15,
      GST_LEGAL_NAME: 'Stagelight Studio',
    });
    expect(parseConfig({ GST_REGISTERED: 'true', GST_NUMBER: '49-091-850' }).GST_NUMBER).toBe('49091850');
    expect(() => parseConfig({ GST_NUMBER: '49-091-851' })).toThrow(
      /GST_NUMBER: not a valid IRD\/GST number/,
    );
    expect(() => parseConfig({ GST_REGISTERED: 'true' })).toThrow(
      /GST_NUMBER is required with GST_REGISTERED/,
    );
  });
});
