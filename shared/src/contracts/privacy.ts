// Private showcases, removal requests and the audit log (docs/decisions/030): the constants and words,
// without zod, so the public pages that show them stay small. Schemas are in schemas/privacy.ts.

export const showcasePrivacyValues = ['public', 'unlisted', 'code'] as const;
export type ShowcasePrivacyValue = (typeof showcasePrivacyValues)[number];

export const showcasePrivacyLabels: Record<ShowcasePrivacyValue, string> = {
  public: 'Public: listed and searchable',
  unlisted: 'Unlisted: only people with the link',
  code: 'Access code: people with the code',
};

/** Searches that found nothing (their words may name a child) are kept this long (decision 034). */
export const SEARCH_MISS_DAYS = 90;

/** How long a typed access code keeps its showcase open on that device. */
export const ACCESS_CODE_DAYS = 30;

/** The error code of a read refused for want of a showcase's access code (403). */
export const ACCESS_CODE_REQUIRED = 'access_code_required' as const;
/** The error code of a video its studio or family asked to take down (410). */
export const VIDEO_WITHDRAWN = 'video_withdrawn' as const;
export const VIDEO_WITHDRAWN_MESSAGE = 'This video has been withdrawn';
/** The same answer for a wrong code and for a showcase that does not exist (or has no code). */
export const WRONG_ACCESS_CODE = 'That access code did not open this showcase. Check it with your studio.';

export const removalRequesterValues = ['parent', 'dancer', 'studio'] as const;
export const removalRequesterLabels: Record<(typeof removalRequesterValues)[number], string> = {
  parent: 'Parent or guardian',
  dancer: 'Dancer',
  studio: 'Studio',
};

export const REMOVAL_REQUEST_RECEIVED =
  'Thank you. Your request has reached the studio owner, who will reply by e-mail within 7 days.';

/** The owner's target: every request answered within this many days. */
export const REMOVAL_TARGET_DAYS = 7;

export const removalStatusValues = ['open', 'done', 'declined'] as const;
/** A request is about a video (its page's "Request removal") or a dancer (her page's). */
export const removalSubjectValues = ['video', 'dancer'] as const;
export const auditActionValues = ['hide', 'unhide', 'delete', 'takedown', 'restore'] as const;
