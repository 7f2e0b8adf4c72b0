import { timingSafeEqual } from 'node:crypto';
import type { Config } from '@app/shared/config';
import { verifyPassword } from '@app/shared/password';

/** Checks the owner's password: the scrypt hash in production, ADMIN_PASSWORD only in development. */
export async function isAdminPassword(config: Config, password: string): Promise<boolean> {
  if (config.ADMIN_PASSWORD_HASH) return verifyPassword(password, config.ADMIN_PASSWORD_HASH);
  if (config.NODE_ENV === 'production' || !config.ADMIN_PASSWORD) return false;
  const expected = Buffer.from(config.ADMIN_PASSWORD);
  const given = Buffer.from(password);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
