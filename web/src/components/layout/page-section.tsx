import type { ComponentProps } from 'react';

/**
 * A band of a public page (a home section, a part of a service page): its tone and padding, and its
 * content centred at a width. Its first child is its heading; name the band by it (`aria-labelledby`)
 * or, where the heading has no id, with `aria-label`.
 */
export function PageSection({
  tone,
  spacing,
  width,
  children,
  ...section
}: Omit<ComponentProps<'section'>, 'className'> & {
  tone: 'bg-stage-900' | 'bg-stage-950';
  /** The home page's bands are taller than a service page's. */
  spacing: 'py-24' | 'py-20';
  width: 'max-w-7xl' | 'max-w-6xl' | 'max-w-3xl';
}) {
  return (
    <section {...section} className={`${tone} px-6 ${spacing}`}>
      <div className={`mx-auto ${width}`}>{children}</div>
    </section>
  );
}
