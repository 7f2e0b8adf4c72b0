import { Link } from 'wouter';
import { ExternalLink, type LucideIcon } from 'lucide-react';
import { adminScreens } from '../admin-shell/screens.ts';
import { SalesFigures } from './sales-figures.tsx';

const cards: Array<{ href: string; title: string; text: string; icon: LucideIcon }> = [
  ...adminScreens.map(({ path, title, text, icon }) => ({ href: path, title, text, icon })),
  { href: '/', title: 'View Website', text: 'Open the public site as visitors see it.', icon: ExternalLink },
];

/** One card for each admin screen (the sales card shows its figures), and one for the public site. */
export function ScreenCards() {
  return (
    <ul className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
      {cards.map(({ href, title, text, icon: Icon }) => (
        <li key={href}>
          <Link
            href={href}
            className="flex h-full flex-col rounded-2xl border border-white/10 bg-stage-800/80 p-6 transition hover:border-spotlight-400/60 hover:bg-stage-800"
          >
            <Icon className="size-8 text-spotlight-400" aria-hidden />
            <span className="mt-4 text-lg font-semibold text-white">{title}</span>
            <span className="mt-1 text-sm text-zinc-400">{text}</span>
            {href === '/admin/sales' && <SalesFigures />}
          </Link>
        </li>
      ))}
    </ul>
  );
}
