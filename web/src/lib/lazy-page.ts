import { createElement, lazy, type ComponentType } from 'react';

export type LazyPage = ComponentType & { preload(): Promise<unknown> };

/**
 * A screen whose code loads on demand. Once loaded (`preload()` can start that early) it renders at
 * once instead of through its Suspense fallback, so a page the server has already painted is replaced
 * by the same page, not by a spinner first.
 */
export function lazyPage(load: () => Promise<{ default: ComponentType }>): LazyPage {
  let loaded: ComponentType | undefined;
  let loading: Promise<{ default: ComponentType }> | undefined;
  // Once: React and an early preload share the load, and the screen keeps one component identity.
  const preload = () =>
    (loading ??= load().then((module) => {
      loaded = module.default;
      return module;
    }));
  const Pending = lazy(preload);
  const Page = () => createElement(loaded ?? Pending);
  return Object.assign(Page, { preload });
}
