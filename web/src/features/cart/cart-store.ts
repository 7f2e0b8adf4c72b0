import { useSyncExternalStore } from 'react';
import { CART_MAX_ITEMS } from '@app/shared/constants';

// The cart lives in the browser (docs/decisions/023): localStorage keeps it across reloads, and the
// storage event brings other tabs' changes. The server prices it again at checkout; what is kept here
// is what the buyer saw, so the cart page can say what changed since.

export type CartEntry =
  | {
      kind: 'video';
      videoId: string;
      title: string;
      showcaseId: string | null;
      showcaseName: string | null;
      priceCents: number;
      previewUrl: string | null;
      /** A protected video's password token (it expires: the cart then asks for the password again). */
      verificationToken?: string;
    }
  | {
      kind: 'bundle';
      showcaseId: string;
      name: string;
      priceCents: number;
      videoCount: number;
      videoIds: string[];
    };

const KEY = 'stagelight-cart';
const EMPTY: CartEntry[] = [];
const listeners = new Set<() => void>();
let cachedRaw: string | null = null;
let cached: CartEntry[] = EMPTY;

export const entryKey = (entry: CartEntry) =>
  entry.kind === 'video' ? `video:${entry.videoId}` : `bundle:${entry.showcaseId}`;

function readRaw(): string | null {
  try {
    return localStorage.getItem(KEY);
  } catch {
    return null;
  }
}

function snapshot(): CartEntry[] {
  const raw = readRaw();
  if (raw === cachedRaw) return cached;
  cachedRaw = raw;
  try {
    const parsed: unknown = raw ? JSON.parse(raw) : [];
    cached = Array.isArray(parsed)
      ? (parsed as CartEntry[]).filter(
          (entry) =>
            (entry?.kind === 'video' && typeof entry.videoId === 'string') ||
            (entry?.kind === 'bundle' && typeof entry.showcaseId === 'string'),
        )
      : EMPTY;
  } catch {
    cached = EMPTY;
  }
  return cached;
}

function save(entries: CartEntry[]): void {
  try {
    if (entries.length === 0) localStorage.removeItem(KEY);
    else localStorage.setItem(KEY, JSON.stringify(entries));
  } catch {
    // Storage switched off or full: the cart lasts as long as this page.
    cachedRaw = null;
    cached = entries;
  }
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  const onStorage = (event: StorageEvent) => {
    if (event.key === KEY || event.key === null) listener();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

/** The cart's entries; empty while rendering on the server (and on the first render after it). */
export const useCart = () => useSyncExternalStore(subscribe, snapshot, () => EMPTY);

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
    if (entries.some((item) => item.kind === 'bundle' && item.videoIds.includes(entry.videoId)))
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
