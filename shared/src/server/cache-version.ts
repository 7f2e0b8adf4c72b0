import { randomInt } from 'node:crypto';
import type { Redis } from 'ioredis';

// The api keeps the public lists (videos, showcases, portfolio, events) in memory between requests
// (api/src/site/public-cache.ts). A kept list is used only while this version is the one it was read
// under, so every write to what those lists show, on any api replica or in the worker, changes it.
//
// Versions are random numbers, not a counter: a Redis that lost the key (restarted empty, FLUSHALL)
// would count 1, 2, 3 again and make lists kept under the old 1, 2, 3 look current (decision 018).

export const publicContentVersionKey = (prefix: string) => `${prefix}:public-content-version`;

const freshVersion = () => String(randomInt(1, 2 ** 48 - 1));

export async function markPublicContentChanged(redis: Redis, prefix: string): Promise<void> {
  await redis.set(publicContentVersionKey(prefix), freshVersion());
}

/** The current version. A missing key is set to a fresh one, so its loss reads as a change. */
export async function readPublicContentVersion(redis: Redis, prefix: string): Promise<string> {
  const version = freshVersion();
  // One round trip: answers the version already there, or nil when it stored ours (Redis 7).
  const existing = await redis.set(publicContentVersionKey(prefix), version, 'NX', 'GET');
  return existing ?? version;
}
