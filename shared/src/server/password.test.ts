import { describe, expect, it } from 'vitest';
import { hashPassword, verifyPassword } from './password.ts';

describe('password hashing', () => {
  it('verifies the right password only, with a fresh salt each time', async () => {
    const hash = await hashPassword('encore');
    expect(hash).toMatch(/^scrypt\$/);
    expect(hash).not.toContain('encore');
    expect(await hashPassword('encore')).not.toBe(hash);
    expect(await verifyPassword('encore', hash)).toBe(true);
    expect(await verifyPassword('Encore', hash)).toBe(false);
    expect(await verifyPassword('encore', 'garbage')).toBe(false);
  });
});
