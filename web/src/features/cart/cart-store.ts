import { useSyncExternalStore } from 'react';

// The cart lives in the browser (docs/decisions/023): localStorage keeps it across reloads, and the
// storage event brings other tabs' changes. The server prices it again at checkout; what is kept here
// is what the buyer saw, so the cart page can say what changed since. This module is what the header's
// count needs, on every page's first load; the changes to the cart are in cart.ts, loaded with the shop.

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
    }
  | {
      /** A dancer's or a studio's routines at one competition (docs/decisions/032). */
      kind: 'routines';
      performer: 'dancer' | 'studio';
      performerId: string;
      title: string;
      showcaseName: string;
      priceCents: number;
      videoIds: string[];
    };

const KEY = 'stagelight-cart';
const EMPTY: CartEntry[] = [];
const listeners = new Set<() => void>();
let cachedRaw: string | null = null;
let cached: CartEntry[] = EMPTY;

export const entryKey = (entry: CartEntry) =>
  entry.kind === 'video'
    ? `video:${entry.videoId}`
    : entry.kind === 'bundle'
      ? `bundle:${entry.showcaseId}`
      : `${entry.performer}:${entry.performerId}`;

function readRaw(): string | null {
  try {
    return localStorage.getItem(KEY);
  } catch {
    return null;
  }
}

/** The cart as stored now (cached while the stored text is unchanged). */
export function snapshot(): CartEntry[] {
  const raw = readRaw();
  if (raw === cachedRaw) return cached;
  cachedRaw = raw;
  try {
    const parsed: unknown = raw ? JSON.parse(raw) : [];
    cached = Array.isArray(parsed)
      ? (parsed as CartEntry[]).filter(
          (entry) =>
            (entry?.kind === 'video' && typeof entry.videoId === 'string') ||
            (entry?.kind === 'bundle' && typeof entry.showcaseId === 'string') ||
            (entry?.kind === 'routines' &&
              typeof entry.performerId === 'string' &&
              Array.isArray(entry.videoIds)),
        )
      : EMPTY;
  } catch {
    cached = EMPTY;
  }
  return cached;
}

/** Stores the cart and tells this tab's readers (other tabs hear the storage event). */
export function save(entries: CartEntry[]): void {
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
