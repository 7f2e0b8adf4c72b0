import { CART_MAX_ITEMS } from '@app/shared/constants';
import { entryKey, save, snapshot, type CartEntry } from './cart-store.ts';

// Changes to the cart (docs/decisions/023), apart from its store so that they load with the shop's
// screens, not with every page's header (decision 015).

export type AddResult = 'added' | 'already' | 'in-bundle' | 'full';

export const cart = {
  entries: snapshot,
  /** A video, once; not when a bundle in the cart already holds it. */
  addVideo(entry: Extract<CartEntry, { kind: 'video' }>): AddResult {
    const entries = snapshot();
    const existing = entries.find((item) => item.kind === 'video' && item.videoId === entry.videoId);
    if (existing) {
      // Same video again: only a fresher password token is worth keeping.
      if (entry.verificationToken)
        save(entries.map((item) => (item === existing ? { ...existing, ...entry } : item)));
      return 'already';
    }
    if (entries.some((item) => item.kind !== 'video' && item.videoIds.includes(entry.videoId)))
      return 'in-bundle';
    if (entries.length >= CART_MAX_ITEMS) return 'full';
    save([...entries, entry]);
    return 'added';
  },
  /** A showcase bundle; the videos it includes leave the cart. Returns how many left, or a refusal. */
  addBundle(entry: Extract<CartEntry, { kind: 'bundle' }>): AddResult | number {
    const entries = snapshot();
    if (entries.some((item) => item.kind === 'bundle' && item.showcaseId === entry.showcaseId))
      return 'already';
    const kept = entries.filter((item) => item.kind !== 'video' || !entry.videoIds.includes(item.videoId));
    if (kept.length >= CART_MAX_ITEMS) return 'full';
    save([...kept, entry]);
    return entries.length - kept.length;
  },
  /**
   * A dancer's or studio's routines: their videos leave the cart, and so does another offer sharing
   * a routine (a duo is in both dancers' offers); returns how many left, or a refusal.
   */
  addRoutines(entry: Extract<CartEntry, { kind: 'routines' }>): AddResult | number {
    const entries = snapshot();
    if (entries.some((item) => entryKey(item) === entryKey(entry))) return 'already';
    const kept = entries.filter((item) =>
      item.kind === 'video'
        ? !entry.videoIds.includes(item.videoId)
        : item.kind === 'bundle' || !item.videoIds.some((id) => entry.videoIds.includes(id)),
    );
    if (kept.length >= CART_MAX_ITEMS) return 'full';
    save([...kept, entry]);
    return entries.length - kept.length;
  },
  remove(key: string) {
    save(snapshot().filter((entry) => entryKey(entry) !== key));
  },
  /** Applies the server's corrections (new prices, items no longer for sale). */
  replace(entries: CartEntry[]) {
    save(entries);
  },
  clear() {
    save([]);
  },
};
