import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { createLoadShedder, SHED_LIMIT, SHED_PICTURE_LIMIT } from './load-shedding.ts';

const request = (url: string, address: string, forwardedFor?: string) =>
  ({
    url,
    headers: forwardedFor ? { 'x-forwarded-for': forwardedFor } : {},
    socket: { remoteAddress: address },
  }) as unknown as IncomingMessage;

function response() {
  const sent: { status?: number; headers?: Record<string, unknown> } = {};
  const res = {
    writeHead: (status: number, headers: Record<string, unknown>) => Object.assign(sent, { status, headers }),
    end: () => undefined,
  } as unknown as ServerResponse;
  return { res, sent };
}

describe('the per-address limit before Express', () => {
  it('refuses an address past its allowance with 429 and Retry-After, and no one else', () => {
    const shed = createLoadShedder({ TRUST_PROXY: false });
    for (let index = 0; index < SHED_LIMIT; index++)
      expect(shed(request('/api/purchases/x', '192.0.2.1'), response().res)).toBe(false);
    const { res, sent } = response();
    expect(shed(request('/api/contacts', '192.0.2.1'), res)).toBe(true);
    expect(sent.status).toBe(429);
    expect(Number(sent.headers?.['Retry-After'])).toBeGreaterThan(0);
    expect(shed.refused).toBe(1);
    // Another address, a page (not /api/), Stripe's webhook, and a spoofed header change nothing.
    expect(shed(request('/api/contacts', '192.0.2.2'), response().res)).toBe(false);
    expect(shed(request('/videos', '192.0.2.1'), response().res)).toBe(false);
    expect(shed(request('/api/stripe/webhook', '192.0.2.1'), response().res)).toBe(false);
    expect(shed(request('/api/contacts', '192.0.2.1', '198.51.100.9'), response().res)).toBe(true);
  });

  it('gives pictures their own, larger allowance', () => {
    const shed = createLoadShedder({ TRUST_PROXY: false });
    for (let index = 0; index < SHED_LIMIT; index++)
      shed(request('/api/events/x', '192.0.2.3'), response().res);
    for (let index = 0; index < SHED_PICTURE_LIMIT; index++)
      expect(shed(request('/api/images/hero/a.jpg', '192.0.2.3'), response().res)).toBe(false);
    expect(shed(request('/api/video-preview/previews%2Fa.jpg', '192.0.2.3'), response().res)).toBe(true);
  });

  it('reads the address from X-Forwarded-For only from a trusted proxy', () => {
    const shed = createLoadShedder({ TRUST_PROXY: ['loopback'] });
    for (let index = 0; index < SHED_LIMIT; index++)
      shed(request('/api/x', '127.0.0.1', '203.0.113.1'), response().res);
    expect(shed(request('/api/x', '127.0.0.1', '203.0.113.1'), response().res)).toBe(true);
    expect(shed(request('/api/x', '127.0.0.1', '203.0.113.2'), response().res)).toBe(false);
  });
});
