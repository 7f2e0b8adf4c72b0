import { useEffect, useRef, useState } from 'react';

/**
 * True once the element has come within `margin` of the viewport, and from then on: for what should
 * load only when the reader gets close to it (gallery pictures, the contact form's code).
 */
export function useNearViewport<T extends Element>(margin: string) {
  const ref = useRef<T>(null);
  const [near, setNear] = useState(false);
  useEffect(() => {
    const element = ref.current;
    if (!element || near) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) {
          setNear(true);
          observer.disconnect();
        }
      },
      { rootMargin: margin },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [margin, near]);
  return [ref, near] as const;
}
