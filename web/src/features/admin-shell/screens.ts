import type { ComponentType } from 'react';
import {
  Activity,
  BellRing,
  CalendarDays,
  ChartColumn,
  Film,
  Images,
  Inbox,
  Landmark,
  ListOrdered,
  Quote,
  Receipt,
  RefreshCw,
  ScrollText,
  SearchX,
  ShieldAlert,
  Upload,
  type LucideIcon,
} from 'lucide-react';

/**
 * Every admin screen, once: its path, its card on the dashboard and its page's code (loaded when opened).
 * A new screen is one entry here; `admin-area.tsx` routes to it and the dashboard shows its card.
 */
export interface AdminScreen {
  path: string;
  title: string;
  text: string;
  icon: LucideIcon;
  page: () => Promise<{ default: ComponentType }>;
}

export const adminScreens: AdminScreen[] = [
  {
    path: '/admin/contacts',
    title: 'Contact Submissions',
    text: 'Read enquiries sent through the contact form.',
    icon: Inbox,
    page: () => import('../admin-contacts/contacts-page.tsx'),
  },
  {
    path: '/admin/sync',
    title: 'Order Links Sync',
    text: 'Update competition booking links from the spreadsheet.',
    icon: RefreshCw,
    page: () => import('../admin-sync/sync-page.tsx'),
  },
  {
    path: '/admin/events',
    title: 'Manage Events',
    text: 'Create, edit and manage dance competition cards with booking links and images.',
    icon: CalendarDays,
    page: () => import('../admin-events/events-page.tsx'),
  },
  {
    path: '/admin/portfolio',
    title: 'Manage Portfolio',
    text: 'Upload photos, write alt text, feature them in the hero, order and replace them.',
    icon: Images,
    page: () => import('../admin-portfolio/portfolio-page.tsx'),
  },
  {
    path: '/admin/videos',
    title: 'Manage Videos',
    text: 'Upload to cloud object storage with card payments; arrange showcases.',
    icon: Film,
    page: () => import('../admin-videos/videos-page.tsx'),
  },
  {
    path: '/admin/programmes',
    title: 'Programmes',
    text: 'Import competition programmes: entries, dancers and studios; names and buy-all offers.',
    icon: ListOrdered,
    page: () => import('../admin-programmes/programmes-page.tsx'),
  },
  {
    path: '/admin/uploads',
    title: 'Competition upload',
    text: "A competition's videos in one go: resumable, matched to the programme's entries.",
    icon: Upload,
    page: () => import('../admin-bulk-upload/bulk-upload-page.tsx'),
  },
  {
    path: '/admin/season',
    title: 'Season View',
    text: 'A competition at a glance: videos, sales per day, visits to purchases, top routines, failed searches.',
    icon: ChartColumn,
    page: () => import('../admin-season/season-page.tsx'),
  },
  {
    path: '/admin/search-misses',
    title: 'Searches that found nothing',
    text: 'What parents searched for that found nothing: misspelt names, entries missing from a programme.',
    icon: SearchX,
    page: () => import('../admin-search-misses/search-misses-page.tsx'),
  },
  {
    path: '/admin/waiting',
    title: 'Waiting for videos',
    text: 'Routines parents asked to hear about that are not online yet: what to publish next.',
    icon: BellRing,
    page: () => import('../admin-online-alerts/waiting-page.tsx'),
  },
  {
    path: '/admin/testimonials',
    title: 'Testimonials',
    text: 'Add, edit, reorder and hide the quotes on the home page.',
    icon: Quote,
    page: () => import('../admin-testimonials/testimonials-page.tsx'),
  },
  {
    path: '/admin/sales',
    title: 'Sales',
    text: 'Purchases, receipts, offline payments and CSV export.',
    icon: Receipt,
    page: () => import('../admin-sales/sales-page.tsx'),
  },
  {
    path: '/admin/gst',
    title: 'GST and Xero',
    text: 'GST settings, the GST report for any period and the Xero import.',
    icon: Landmark,
    page: () => import('../admin-gst/gst-page.tsx'),
  },
  {
    path: '/admin/removal-requests',
    title: 'Removal requests',
    text: 'Takedown requests from video pages, each against its 7-day target; hide a routine in one click.',
    icon: ShieldAlert,
    page: () => import('../admin-privacy/removal-requests-page.tsx'),
  },
  {
    path: '/admin/audit-log',
    title: 'Audit log',
    text: 'Every hide, publish, delete and takedown: who, what, when and why.',
    icon: ScrollText,
    page: () => import('../admin-audit-log/audit-log-page.tsx'),
  },
  {
    path: '/admin/jobs',
    title: 'Jobs',
    text: 'Watch background jobs: e-mails, sales, syncs; retry failures.',
    icon: Activity,
    page: () => import('../admin-jobs/jobs-page.tsx'),
  },
];
