import type { Redis } from 'ioredis';
import { purchaseSettledChannel } from '@app/shared/sales';

/**
 * Status requests one api process holds at once, in all and per client address (so one address
 * cannot take the whole allowance); beyond them requests answer at once, as plain polls.
 */
const defaultCaps = { total: 1_000, perAddress: 10 };

/**
 * Buyers' status requests waiting for their purchase to settle (decision 014). Each api process
 * subscribes once to the channel the worker announces settled purchases on, and wakes every request
 * waiting for that purchase; the request then reads the row again, which stays the only truth. When
 * the subscription is down (Redis outage) nothing waits: the buyer's page keeps polling as before.
 */
export class PurchaseWaiters {
  private readonly waiting = new Map<string, Set<() => void>>();
  private readonly perAddress = new Map<string, number>();
  private count = 0;
  private closed = false;
  /** True from the server's acknowledgement of the subscription until the connection drops. */
  private listening = false;

  constructor(
    private readonly subscriber: Redis,
    prefix: string,
    private readonly caps = defaultCaps,
  ) {
    const channel = purchaseSettledChannel(prefix);
    const subscribe = () =>
      subscriber.subscribe(channel).then(
        () => (this.listening = !this.closed && subscriber.status === 'ready'),
        () => {},
      );
    void subscribe();
    // After a reconnect (a Redis restarted empty included), requests wait again only once subscribed.
    subscriber.on('ready', () => void subscribe());
    // An announcement made while the connection was down is lost: the held requests read their
    // purchase again now rather than at the end of their wait (decision 018).
    subscriber.on('close', () => {
      this.listening = false;
      this.wakeAll();
    });
    subscriber.on('message', (from: string, purchaseId: string) => {
      if (from === channel) this.wake(purchaseId);
    });
  }

  /**
   * Resolves when the purchase is announced settled, after `ms`, when `signal` aborts, or at shutdown;
   * at once when waiting cannot help. The caller reads the purchase again after registering, so an
   * announcement between its first read and this call is not missed.
   */
  wait(purchaseId: string, ms: number, signal: AbortSignal, address: string): Promise<void> {
    const fromAddress = this.perAddress.get(address) ?? 0;
    if (
      this.closed ||
      signal.aborted ||
      this.count >= this.caps.total ||
      fromAddress >= this.caps.perAddress ||
      !this.listening
    ) {
      return Promise.resolve();
    }
    this.perAddress.set(address, fromAddress + 1);
    return new Promise<void>((resolve) => {
      const waiters = this.waiting.get(purchaseId) ?? new Set<() => void>();
      this.waiting.set(purchaseId, waiters);
      const done = () => {
        clearTimeout(timer);
        signal.removeEventListener('abort', done);
        if (waiters.delete(done)) {
          this.count--;
          const left = (this.perAddress.get(address) ?? 1) - 1;
          if (left > 0) this.perAddress.set(address, left);
          else this.perAddress.delete(address);
        }
        if (waiters.size === 0 && this.waiting.get(purchaseId) === waiters) this.waiting.delete(purchaseId);
        resolve();
      };
      const timer = setTimeout(done, ms);
      signal.addEventListener('abort', done, { once: true });
      waiters.add(done);
      this.count++;
    });
  }

  /** How many requests are waiting now (a gauge of /metrics). */
  get size(): number {
    return this.count;
  }

  private wake(purchaseId: string): void {
    for (const done of [...(this.waiting.get(purchaseId) ?? [])]) done();
  }

  private wakeAll(): void {
    for (const waiters of [...this.waiting.values()]) for (const done of [...waiters]) done();
  }

  /** Answers every waiting request now and takes no more waits (shutdown must not wait on them). */
  close(): void {
    this.closed = true;
    this.listening = false;
    this.wakeAll();
    this.subscriber.disconnect();
  }
}
