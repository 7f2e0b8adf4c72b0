import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedis } from '@app/shared/redis';
import { announcePurchaseSettled, purchaseSettledChannel } from '@app/shared/sales';
import { TEST_REDIS_URL } from '../../../../test/support/services.ts';
import { PurchaseWaiters } from './purchase-waiters.ts';

const prefix = `test-waiters-${randomUUID().slice(0, 8)}`;
const publisher = createRedis(TEST_REDIS_URL, 'client');
let waiters: PurchaseWaiters;

beforeAll(async () => {
  waiters = new PurchaseWaiters(createRedis(TEST_REDIS_URL, 'client'), prefix);
  // Subscribed once Redis counts a subscriber on the channel.
  for (;;) {
    const [, subscribers] = (await publisher.pubsub('NUMSUB', purchaseSettledChannel(prefix))) as [
      string,
      number,
    ];
    if (subscribers === 1) break;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
});
afterAll(() => {
  waiters.close();
  publisher.disconnect();
});

const outcome = (promise: Promise<void>) =>
  Promise.race([
    promise.then(() => 'answered'),
    new Promise((resolve) => setTimeout(resolve, 200, 'waiting')),
  ]);

describe('PurchaseWaiters', () => {
  it('wakes every request waiting for the announced purchase, and only those', async () => {
    const first = waiters.wait('purchase-a', 30_000, new AbortController().signal, 'address');
    const second = waiters.wait('purchase-a', 30_000, new AbortController().signal, 'address');
    const other = waiters.wait('purchase-b', 30_000, new AbortController().signal, 'address');
    expect(waiters.size).toBe(3);

    await announcePurchaseSettled(publisher, prefix, 'purchase-a');
    await Promise.all([first, second]);
    expect(await outcome(other)).toBe('waiting');
    expect(waiters.size).toBe(1);
    await announcePurchaseSettled(publisher, prefix, 'purchase-b');
    await other;
    expect(waiters.size).toBe(0);
  });

  it('lets go of a request whose buyer went away, and of one whose wait ran out', async () => {
    const gone = new AbortController();
    const abandoned = waiters.wait('purchase-c', 30_000, gone.signal, 'address');
    const short = waiters.wait('purchase-c', 50, new AbortController().signal, 'address');
    expect(waiters.size).toBe(2);
    gone.abort();
    await abandoned;
    await short;
    expect(waiters.size).toBe(0);
  });

  it('does not hold requests when it cannot hear announcements, or after close', async () => {
    const deaf = new PurchaseWaiters(createRedis('redis://127.0.0.1:1', 'client'), prefix);
    expect(await outcome(deaf.wait('purchase-d', 30_000, new AbortController().signal, 'address'))).toBe(
      'answered',
    );
    deaf.close();

    const closing = new PurchaseWaiters(createRedis(TEST_REDIS_URL, 'client'), prefix);
    const held = closing.wait('purchase-e', 30_000, new AbortController().signal, 'address');
    closing.close();
    await held;
    expect(await outcome(closing.wait('purchase-e', 30_000, new AbortController().signal, 'address'))).toBe(
      'answered',
    );
    expect(closing.size).toBe(0);
  });

  it('answers held requests when its connection drops, and holds again once subscribed anew', async () => {
    const connection = createRedis(TEST_REDIS_URL, 'client');
    const dropping = new PurchaseWaiters(connection, prefix);
    try {
      await expect
        .poll(async () =>
          outcome(dropping.wait('purchase-f', 1_000, new AbortController().signal, 'address')),
        )
        .toBe('waiting');
      const held = dropping.wait('purchase-f', 30_000, new AbortController().signal, 'address');
      // The connection drops and comes back (as when Redis restarts): an announcement may have been lost.
      connection.disconnect(true);
      expect(await outcome(held)).toBe('answered');

      await expect
        .poll(async () =>
          outcome(dropping.wait('purchase-g', 1_000, new AbortController().signal, 'address')),
        )
        .toBe('waiting');
      const again = dropping.wait('purchase-g', 30_000, new AbortController().signal, 'address');
      await announcePurchaseSettled(publisher, prefix, 'purchase-g');
      expect(await outcome(again)).toBe('answered');
    } finally {
      dropping.close();
    }
  });

  it('answers at once past its caps, per address and in total', async () => {
    const capped = new PurchaseWaiters(createRedis(TEST_REDIS_URL, 'client'), prefix, {
      total: 3,
      perAddress: 2,
    });
    await expect.poll(() => capped['listening']).toBe(true);
    const wait = (address: string) =>
      capped.wait('purchase-f', 30_000, new AbortController().signal, address);
    const held = [wait('a'), wait('a')];
    expect(await outcome(wait('a'))).toBe('answered');
    held.push(wait('b'));
    expect(capped.size).toBe(3);
    expect(await outcome(wait('c'))).toBe('answered');
    capped.close();
    await Promise.all(held);
  });
});
