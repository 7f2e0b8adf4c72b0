import { Link } from 'wouter';
import {
  Activity,
  CalendarDays,
  ChartColumn,
  ExternalLink,
  Film,
  Images,
  Inbox,
  Quote,
  Landmark,
  ListOrdered,
  Receipt,
  RefreshCw,
  ScrollText,
  ShieldAlert,
  Upload,
  type LucideIcon,
} from 'lucide-react';
import { SalesFigures } from './sales-figures.tsx';

const cards: Array<{ href: string; title: string; text: string; icon: LucideIcon }> = [
  {
    href: '/admin/contacts',
    title: 'Contact Submissions',
    text: 'Read enquiries sent through the contact form.',
    icon: Inbox,
  },
  {
    href: '/admin/sync',
    title: 'Order Links Sync',
    text: 'Update competition booking links from the spreadsheet.',
    icon: RefreshCw,
  },
  {
    href: '/admin/events',
    title: 'Manage Events',
    text: 'Create, edit and manage dance competition cards with booking links and images.',
    icon: CalendarDays,
  },
  {
    href: '/admin/portfolio',
    title: 'Manage Portfolio',
    text: 'Upload photos, write alt text, feature them in the hero, order and replace them.',
    icon: Images,
  },
  {
    href: '/admin/videos',
    title: 'Manage Videos',
    text: 'Upload to cloud object storage with card payments; arrange showcases.',
    icon: Film,
  },
  {
    href: '/admin/programmes',
    title: 'Programmes',
    text: 'Import competition programmes: entries, dancers and studios; names and buy-all offers.',
    icon: ListOrdered,
  },
  {
    href: '/admin/uploads',
    title: 'Competition upload',
    text: "A competition's videos in one go: resumable, matched to the programme's entries.",
    icon: Upload,
  },
  {
    href: '/admin/season',
    title: 'Season View',
    text: 'A competition at a glance: videos, sales per day, visits to purchases, top routines, failed searches.',
    icon: ChartColumn,
  },
  {
    href: '/admin/testimonials',
    title: 'Testimonials',
    text: 'Add, edit, reorder and hide the quotes on the home page.',
    icon: Quote,
  },
  {
    href: '/admin/sales',
    title: 'Sales',
    text: 'Purchases, receipts, offline payments and CSV export.',
    icon: Receipt,
  },
  {
    href: '/admin/gst',
    title: 'GST and Xero',
    text: 'GST settings, the GST report for any period and the Xero import.',
    icon: Landmark,
  },
  {
    href: '/admin/removal-requests',
    title: 'Removal requests',
    text: 'Takedown requests from video pages, each against its 7-day target; hide a routine in one click.',
    icon: ShieldAlert,
  },
  {
    href: '/admin/audit-log',
    title: 'Audit log',
    text: 'Every hide, publish, delete and takedown: who, what, when and why.',
    icon: ScrollText,
  },
  {
    href: '/admin/jobs',
    title: 'Jobs',
    text: 'Watch background jobs: e-mails, sales, syncs; retry failures.',
    icon: Activity,
  },
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
