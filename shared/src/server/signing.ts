import { createHmac, timingSafeEqual } from 'node:crypto';

// HMAC signatures for links and tokens the api hands out (video tokens, local file links). Each use
// gets its own key derived from SESSION_SECRET, so a signature made for one purpose fails any other.

export function purposeKey(secret: string, purpose: string): Buffer {
  return createHmac('sha256', secret).update(`stagelight:${purpose}`).digest();
}

export function sign(key: Buffer, message: string): string {
  return createHmac('sha256', key).update(message).digest('base64url');
}

export function verifySignature(key: Buffer, message: string, signature: string): boolean {
  const expected = Buffer.from(sign(key, message));
  const given = Buffer.from(signature);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

/** A compact signed token: base64url(JSON payload) + '.' + signature. */
export function createToken(key: Buffer, payload: object): string {
  const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
  return `${body}.${sign(key, body)}`;
}

/** The payload of a token this key signed, or null for anything tampered or malformed. */
export function readToken(key: Buffer, token: string): Record<string, unknown> | null {
  const [body, signature, extra] = token.split('.');
  if (!body || !signature || extra !== undefined || !verifySignature(key, body, signature)) return null;
  try {
    const payload: unknown = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
    return payload && typeof payload === 'object' ? (payload as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}
