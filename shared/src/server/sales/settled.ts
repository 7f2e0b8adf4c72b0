import type { Redis } from 'ioredis';

// When a job moves a purchase on (paid, failed, expired, refunded), the worker announces its id on
// this channel, so an api replica holding the buyer's status request answers at once instead of at
// the buyer's next poll (api/src/features/purchases/purchase-waiters.ts, decision 014).

export const purchaseSettledChannel = (prefix: string) => `${prefix}:purchase-settled`;

export async function announcePurchaseSettled(
  redis: Redis,
  prefix: string,
  purchaseId: string,
): Promise<void> {
  await redis.publish(purchaseSettledChannel(prefix), purchaseId);
}
