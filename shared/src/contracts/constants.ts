// Fixed lists with no validation code attached, so the web app can use them without loading zod.

export const portfolioCategories = ['solo', 'group', 'stage', 'studio'] as const;
export type PortfolioCategory = (typeof portfolioCategories)[number];
/** The gallery's tab for each category, also the admin's name for it. */
export const portfolioCategoryLabels: Record<PortfolioCategory, string> = {
  solo: 'Solo Performances',
  group: 'Group Performances',
  stage: 'Stage Shots',
  studio: 'Studio',
};

/** The contact form's event types: value and label. */
export const contactEventTypes = [
  { value: 'dance-competition', label: 'Dance Competition' },
  { value: 'stage-performance', label: 'Stage Performance' },
  { value: 'stage-show', label: 'Stage Show' },
  { value: 'recital', label: 'Recital' },
  { value: 'videography', label: 'Videography Services' },
  { value: 'photo-video-package', label: 'Photography & Videography Package' },
  { value: 'private-session', label: 'Private Session' },
  { value: 'other', label: 'Other' },
] as const;
export type ContactEventType = (typeof contactEventTypes)[number]['value'];

/** How an enquiry's event type reads to the owner; null (left blank) is "Not given", never "Other". */
export const contactEventTypeLabel = (value: string | null): string =>
  value === null ? 'Not given' : (contactEventTypes.find((type) => type.value === value)?.label ?? value);

/** The most videos and bundles one cart (one checkout) may hold (docs/decisions/023). */
export const CART_MAX_ITEMS = 50;

/** A purchase's life: the purchases table's status column and every answer that reports it. */
export const purchaseStatuses = ['pending', 'paid', 'failed', 'refunded', 'expired'] as const;
export type PurchaseStatus = (typeof purchaseStatuses)[number];
