import type { PublicConfig } from '@app/shared/schemas';

/** Runtime settings the api writes into the page (never secrets): see api/src/site/web.ts. */

let cached: PublicConfig | undefined;

export function publicConfig(): PublicConfig {
  if (cached) return cached;
  const element = document.getElementById('public-config');
  try {
    cached = element?.textContent ? (JSON.parse(element.textContent) as PublicConfig) : {};
  } catch {
    cached = {};
  }
  return cached;
}

/** A page rendered on the server has no document to read: the server hands over the same settings. */
export function setPublicConfig(config: PublicConfig): void {
  cached = config;
}
