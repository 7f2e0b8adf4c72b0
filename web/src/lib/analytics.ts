// Named events for the owner's cookie-free analytics (Plausible-compatible). The script is only in the
// page when ANALYTICS_DOMAIN is set (api/src/site/seo.ts); without it these calls do nothing.

type AnalyticsEvent = 'Contact Sent' | 'Booking Link Opened' | 'Checkout Started' | 'Video Downloaded';

declare global {
  interface Window {
    plausible?: (event: string, options?: { props?: Record<string, string> }) => void;
  }
}

export function track(event: AnalyticsEvent, props?: Record<string, string>): void {
  window.plausible?.(event, props ? { props } : undefined);
}
