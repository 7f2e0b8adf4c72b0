import { createCipheriv, createDecipheriv, createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Request, Response } from 'express';
import { ACCESS_CODE_DAYS, ACCESS_CODE_REQUIRED, type ShowcasePrivacyValue } from '@app/shared/schemas';
import { createToken, purposeKey, readToken } from '@app/shared/signing';
import type { Deps } from '../../deps.ts';
import { HttpError } from '../../http/errors.ts';

// Access codes (docs/decisions/030): stored encrypted (AES-256-GCM, a key derived from SESSION_SECRET)
// so the owner can read the code back to the studio; a visitor who typed it gets a signed cookie for
// that showcase alone, bound to the stored ciphertext, so a new code closes every device's old one.

type Keyed = Pick<Deps, 'config'>;

const cipherKey = (deps: Keyed) => purposeKey(deps.config.SESSION_SECRET, 'showcase-access-code');
const cookieKey = (deps: Keyed) => purposeKey(deps.config.SESSION_SECRET, 'showcase-access-cookie');

export function encryptAccessCode(deps: Keyed, code: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', cipherKey(deps), iv);
  const sealed = Buffer.concat([cipher.update(code, 'utf8'), cipher.final()]);
  return ['v1', iv, cipher.getAuthTag(), sealed]
    .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
    .join('.');
}

/** The code, or null when it cannot be read (SESSION_SECRET changed since: the owner sets a new one). */
export function decryptAccessCode(deps: Keyed, stored: string | null): string | null {
  if (!stored) return null;
  const [version, iv, tag, sealed] = stored.split('.');
  if (version !== 'v1' || !iv || !tag || !sealed) return null;
  try {
    const decipher = createDecipheriv('aes-256-gcm', cipherKey(deps), Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(sealed, 'base64url')), decipher.final()]).toString(
      'utf8',
    );
  } catch {
    return null;
  }
}

/** Codes are compared without case and surrounding spaces (read out over the phone, typed on a phone). */
const normalized = (code: string) => createHash('sha256').update(code.trim().toLowerCase()).digest();

export function accessCodeMatches(deps: Keyed, stored: string | null, typed: string): boolean {
  const code = decryptAccessCode(deps, stored);
  return code !== null && timingSafeEqual(normalized(code), normalized(typed));
}

const cookieName = (showcaseId: string) =>
  `showcase_${createHash('sha256').update(showcaseId).digest('hex').slice(0, 16)}`;
const codeStamp = (stored: string) => createHash('sha256').update(stored).digest('base64url').slice(0, 16);

function cookieValue(req: Request, name: string): string | undefined {
  for (const part of (req.get('cookie') ?? '').split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return value.join('=') || undefined;
  }
  return undefined;
}

/** A video's showcase as the access check needs it; null for a video without a showcase. */
export interface ShowcaseGate {
  showcaseId: string;
  privacy: ShowcasePrivacyValue;
  accessCodeEncrypted: string | null;
}

/** True when the showcase is not behind a code, or this browser holds its current code's cookie. */
export function hasShowcaseAccess(deps: Keyed, req: Request, gate: ShowcaseGate | null): boolean {
  if (gate?.privacy !== 'code') return true;
  if (!gate.accessCodeEncrypted) return false;
  const value = cookieValue(req, cookieName(gate.showcaseId));
  const payload = value ? readToken(cookieKey(deps), decodeURIComponent(value)) : null;
  return (
    payload?.s === gate.showcaseId &&
    payload.k === codeStamp(gate.accessCodeEncrypted) &&
    typeof payload.exp === 'number' &&
    payload.exp * 1000 > Date.now()
  );
}

/** Whether this request may see what lies behind a showcase's gate (reads and sales take it as a parameter). */
export type ShowcaseOpener = (gate: ShowcaseGate | null) => boolean;

export const showcaseOpener =
  (deps: Keyed, req: Request): ShowcaseOpener =>
  (gate) =>
    hasShowcaseAccess(deps, req, gate);

export const accessCodeRequired = () =>
  new HttpError(403, 'This showcase needs its access code', { code: ACCESS_CODE_REQUIRED });

/** Refuses (403, code ACCESS_CODE_REQUIRED) a read of a showcase behind a code this browser has not typed. */
export function requireShowcaseAccess(deps: Keyed, req: Request, gate: ShowcaseGate | null): void {
  if (!hasShowcaseAccess(deps, req, gate)) throw accessCodeRequired();
}

export function grantShowcaseAccess(
  deps: Keyed,
  res: Response,
  showcase: { id: string; accessCodeEncrypted: string },
): void {
  const exp = Math.floor(Date.now() / 1000) + ACCESS_CODE_DAYS * 24 * 3600;
  const token = createToken(cookieKey(deps), {
    s: showcase.id,
    k: codeStamp(showcase.accessCodeEncrypted),
    exp,
  });
  res.cookie(cookieName(showcase.id), token, {
    httpOnly: true,
    sameSite: 'lax',
    secure: deps.config.secureCookies,
    path: '/',
    maxAge: ACCESS_CODE_DAYS * 24 * 3600_000,
  });
}
