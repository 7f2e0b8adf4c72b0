import { useQuery } from '@tanstack/react-query';
import type { PortfolioCategory } from '@app/shared/constants';
import type { PublicPortfolioImage } from '@app/shared/schemas';
import type { PublicEvent, PublicTestimonial } from '@app/shared/schemas';
import { api } from '../../lib/api.ts';

export type PortfolioImage = PublicPortfolioImage;

export type CompetitionEvent = PublicEvent;

const FIVE_MINUTES = 5 * 60_000;

/** Every portfolio image (the hero's pool); cached 5 minutes. */
export function usePortfolio() {
  return useQuery({
    queryKey: ['/api/portfolio'],
    queryFn: () => api.get<PortfolioImage[]>('/api/portfolio'),
    staleTime: FIVE_MINUTES,
    gcTime: FIVE_MINUTES,
  });
}

export function usePortfolioCategory(category: PortfolioCategory) {
  return useQuery({
    // The route itself: the home page arrives with the opening category's list under it (api/src/site/web.ts).
    queryKey: [`/api/portfolio?category=${category}`],
    queryFn: () => api.get<PortfolioImage[]>(`/api/portfolio?category=${category}`),
    staleTime: FIVE_MINUTES,
    gcTime: FIVE_MINUTES,
  });
}

export function useEvents() {
  return useQuery({ queryKey: ['/api/events'], queryFn: () => api.get<CompetitionEvent[]>('/api/events') });
}

/** Arrives with the home page (api/src/site/web.ts), like the other home lists. */
export function useTestimonials() {
  return useQuery({
    queryKey: ['/api/testimonials'],
    queryFn: () => api.get<PublicTestimonial[]>('/api/testimonials'),
  });
}
