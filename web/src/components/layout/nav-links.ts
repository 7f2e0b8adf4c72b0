/** The site's navigation, in order: a home section to scroll to, or a page of its own. */
export const navLinks: Array<
  { label: string; section: string; href?: never } | { label: string; href: string; section?: never }
> = [
  { label: 'Home', section: 'home' },
  { label: 'Portfolio', section: 'portfolio' },
  { label: 'Videos', href: '/videos' },
  { label: 'Dance Competitions', section: 'competitions' },
  { label: 'About', section: 'about' },
  { label: 'Contact', section: 'contact' },
];

/** The footer's quick links: the home page's sections. */
export const sectionLinks = navLinks.flatMap((link) =>
  link.section ? [{ label: link.label, section: link.section }] : [],
);
