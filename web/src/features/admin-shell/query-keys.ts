// The public lists an owner's write changes: their keys live with their queries.
export { publicKeys } from '../home/queries.ts';

/**
 * The admin's query keys, one definition for each screen's queries and for the writes that refresh them.
 * A key starts with its route's path: invalidating `x.all` refreshes every query under it (every page,
 * filter and search), and logging out drops them all (`session.ts` matches '/api/admin/').
 */
export const adminKeys = {
  session: ['/api/admin/session'] as const,
  salesSummary: ['/api/admin/sales-summary'] as const,
  purchases: {
    all: ['/api/admin/purchases'] as const,
    list: (filters: string, page: number) => [...adminKeys.purchases.all, filters, page] as const,
    totals: (period: string) => [...adminKeys.purchases.all, 'totals', period] as const,
  },
  checkoutReminders: ['/api/admin/checkout-reminders'] as const,
  // The video screen's own lists (features/admin-videos) start with these too.
  videos: {
    all: ['/api/admin/videos'] as const,
    search: (url: string) => [...adminKeys.videos.all, url] as const,
    newest: () => [...adminKeys.videos.all, 'newest-200'] as const,
    /** A showcase's videos, for linking one to a programme entry. */
    forEntry: (showcaseId: string) => [...adminKeys.videos.all, showcaseId, 'for-entry'] as const,
  },
  showcases: ['/api/admin/showcases'] as const,
  /** A showcase's programme entries: `of` refreshes every page and filter of them. */
  entries: {
    of: (showcaseId: string) => [...adminKeys.showcases, showcaseId, 'entries'] as const,
    page: (showcaseId: string, params: string) => [...adminKeys.entries.of(showcaseId), params] as const,
  },
  events: {
    all: ['/api/admin/events'] as const,
    list: (when: string, page: number) => [...adminKeys.events.all, when, page] as const,
    /** The sync screen's next 200 upcoming events (an array, not a page). */
    upcoming: () => [...adminKeys.events.all, 'upcoming-200'] as const,
  },
  portfolio: ['/api/admin/portfolio'] as const,
  testimonials: ['/api/admin/testimonials'] as const,
  contacts: {
    all: ['/api/admin/contacts'] as const,
    page: (url: string) => [...adminKeys.contacts.all, url] as const,
  },
  jobs: {
    all: ['/api/admin/jobs'] as const,
    summary: () => [...adminKeys.jobs.all, 'summary'] as const,
    list: (queue: string, state: string) => [...adminKeys.jobs.all, queue, state] as const,
    watch: (queue: string) => [...adminKeys.jobs.all, queue, 'watch'] as const,
  },
  syncRuns: ['/api/admin/sync-runs'] as const,
  gst: {
    all: ['/api/admin/gst'] as const,
    settings: () => [...adminKeys.gst.all, 'settings'] as const,
    report: (period: string) => [...adminKeys.gst.all, 'report', period] as const,
  },
  removalRequests: ['/api/admin/removal-requests'] as const,
  auditLog: ['/api/admin/audit-log'] as const,
};
