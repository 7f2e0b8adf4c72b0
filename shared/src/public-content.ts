import type { Redis } from 'ioredis';

// The api keeps the public lists (videos, showcases, portfolio, events) in memory between requests
// (api/src/http/public-cache.ts). A kept list is used only while this version is the one it was read
// under, so every write to what those lists show, on any api replica or in the worker, bumps it.

export const publicContentVersionKey = (prefix: string) => `${prefix}:public-content-version`;

export async function markPublicContentChanged(redis: Redis, prefix: string): Promise<void> {
  await redis.incr(publicContentVersionKey(prefix));
}
