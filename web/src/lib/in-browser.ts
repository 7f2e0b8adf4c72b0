import { useSyncExternalStore } from 'react';

const subscribe = () => () => {};

/**
 * False while the server renders a page (web/src/server.tsx), true in the browser. For controls that
 * work only once the app runs: typing into the server's copy would be lost when the app takes over.
 */
export function useInBrowser(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}
