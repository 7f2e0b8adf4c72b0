import { useQuery, type Query } from '@tanstack/react-query';
import type { PortfolioCategory } from '@app/shared/constants';
import type { PublicPortfolioImage } from '@app/shared/schemas';
import type { PublicEvent, PublicTestimonial } from '@app/shared/schemas';
import { api } from '../../lib/api.ts';

export type PortfolioImage = PublicPortfolioImage;

export type CompetitionEvent = PublicEvent;

const FIVE_MINUTES = 5 * 60_000;

/**
 * The public lists' keys: the server sends a page's lists under their URL (api/src/site/web.ts), so a key
 * is the URL itself. The admin refreshes them after the owner's writes (admin-shell/query-keys.ts).
 */
export const publicKeys = {
  portfolio: ['/api/portfolio'] as const,
  portfolioCategory: (category: PortfolioCategory) => [`/api/portfolio?category=${category}`] as const,
  /** Every portfolio list: the whole one and each category's. */
  isPortfolio: (query: Query) => String(query.queryKey[0]).startsWith('/api/portfolio'),
  events: ['/api/events'] as const,
  testimonials: ['/api/testimonials'] as const,
};

/** Every portfolio image (the hero's pool); cached 5 minutes. */
export function usePortfolio() {
  return useQuery({
    queryKey: publicKeys.portfolio,
    queryFn: () => api.get<PortfolioImage[]>('/api/portfolio'),
    staleTime: FIVE_MINUTES,
    gcTime: FIVE_MINUTES,
  });
}

export function usePortfolioCategory(category: PortfolioCategory) {
  return useQuery({
    // The home page arrives with the opening category's list under it.
    queryKey: publicKeys.portfolioCategory(category),
    queryFn: () => api.get<PortfolioImage[]>(`/api/portfolio?category=${category}`),
    staleTime: FIVE_MINUTES,
    gcTime: FIVE_MINUTES,
  });
}

export function useEvents() {
  return useQuery({ queryKey: publicKeys.events, queryFn: () => api.get<CompetitionEvent[]>('/api/events') });
}

/** Arrives with the home page (api/src/site/web.ts), like the other home lists. */
export function useTestimonials() {
  return useQuery({
    queryKey: publicKeys.testimonials,
    queryFn: () => api.get<PublicTestimonial[]>('/api/testimonials'),
  });
}
