import { useEffect, useState } from 'react';

// Sections scroll to 64 px below the top (the fixed header); the active entry
// switches 100 px before a section reaches the top.
export const SCROLL_OFFSET = 64;
export const ACTIVE_OFFSET = 100;

export const homeSections = ['home', 'portfolio', 'competitions', 'about', 'contact'] as const;
export type HomeSection = (typeof homeSections)[number];

const prefersReducedMotion = () => window.matchMedia('(prefers-reduced-motion: reduce)').matches;

let stopFollowing: (() => void) | undefined;
const FOLLOW_MS = 4_000;
const readerInputs = ['wheel', 'touchstart', 'keydown', 'pointerdown'] as const;

/**
 * Smooth-scrolls to a section on this page; false when the page has no such section.
 * Sections above it may still be waiting for their data (gallery, events) and grow as it arrives, which
 * would leave the scroll short; so the target is followed until the layout settles, the reader scrolls
 * or clicks, or a few seconds pass.
 */
export function scrollToSection(id: string): boolean {
  const element = document.getElementById(id);
  if (!element) return false;
  stopFollowing?.();
  const behavior: ScrollBehavior = prefersReducedMotion() ? 'instant' : 'smooth';
  const targetTop = () => Math.max(0, element.getBoundingClientRect().top + window.scrollY - SCROLL_OFFSET);
  let target = targetTop();
  window.scrollTo({ top: target, behavior });

  const resized = new ResizeObserver(() => {
    const next = targetTop();
    if (Math.abs(next - target) < 1) return;
    target = next;
    window.scrollTo({ top: target, behavior });
  });
  resized.observe(document.body);
  const stop = () => {
    resized.disconnect();
    clearTimeout(timer);
    for (const name of readerInputs) window.removeEventListener(name, stop, true);
    if (stopFollowing === stop) stopFollowing = undefined;
  };
  const timer = setTimeout(stop, FOLLOW_MS);
  // Listen from the next task, so the click or key press that asked for this scroll does not end it.
  setTimeout(() => {
    if (stopFollowing !== stop) return;
    for (const name of readerInputs) window.addEventListener(name, stop, { capture: true, passive: true });
  });
  stopFollowing = stop;
  return true;
}

/** Goes to a home section: scrolls when it is on this page, otherwise navigates to /#section. */
export function goToSection(id: string, navigate: (to: string) => void): void {
  if (!scrollToSection(id)) navigate(`/#${id}`);
}

/** The section the reader is in: the last one whose top has passed ACTIVE_OFFSET. */
export function useActiveSection(ids: readonly string[]): string {
  const [active, setActive] = useState(ids[0] ?? '');
  useEffect(() => {
    let frame = 0;
    const update = () => {
      frame = 0;
      let current = ids[0] ?? '';
      for (const id of ids) {
        const element = document.getElementById(id);
        if (element && element.getBoundingClientRect().top - ACTIVE_OFFSET <= 0) current = id;
      }
      setActive(current);
    };
    const onScroll = () => {
      if (!frame) frame = requestAnimationFrame(update);
    };
    update();
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => {
      window.removeEventListener('scroll', onScroll);
      if (frame) cancelAnimationFrame(frame);
    };
  }, [ids]);
  return active;
}

/** Elements with the `reveal` class gain `revealed` once 10% of them is visible. */
export function useScrollReveal(): void {
  useEffect(() => {
    const observer = new IntersectionObserver(
      (entries) => {
        for (const entry of entries) {
          if (entry.isIntersecting) {
            entry.target.classList.add('revealed');
            observer.unobserve(entry.target);
          }
        }
      },
      { threshold: 0.1 },
    );
    const observe = () =>
      document.querySelectorAll('.reveal:not(.revealed)').forEach((element) => observer.observe(element));
    observe();
    // Sections that render later (after their data arrives) are picked up too.
    const mutations = new MutationObserver(observe);
    mutations.observe(document.body, { childList: true, subtree: true });
    return () => {
      observer.disconnect();
      mutations.disconnect();
    };
  }, []);
}

/** Sets the tab title for client-side navigation (the server already sent it for the first page). */
export function useDocumentTitle(title: string): void {
  useEffect(() => {
    document.title = title;
  }, [title]);
}
