import { describe, expect, it } from 'vitest';
import { ConfigError, DEV_ADMIN_PASSWORD, parseConfig } from './config.ts';

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
    expect(() => parseConfig({ NODE_ENV: 'production', SESSION_SECRET: 's' })).toThrow(
      /ADMIN_PASSWORD_HASH is required in production/,
    );
  });

  it('refuses the plain development password in production and never defaults it there', () => {
    const secrets = { NODE_ENV: 'production', SESSION_SECRET: 's', ADMIN_PASSWORD_HASH: 'scrypt$a$b' };
    expect(() => parseConfig({ ...secrets, ADMIN_PASSWORD: 'x' })).toThrow(
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
});
