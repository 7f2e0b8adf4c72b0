// What the api writes into every page it serves (api/src/site/seo.ts publicConfig) and the web app
// reads back (web/src/lib/public-config.ts). Runtime settings only, never secrets.

/** The `<script id="public-config">` JSON of each page. */
export interface PublicConfig {
  appUrl?: string;
  contactEmail?: string;
  analyticsDomain?: string;
  analyticsScriptUrl?: string;
  /** How long enquiries and processing records are kept, in days (the privacy page states them). */
  retention?: { enquiryDays: number; jobRecordDays: number };
}
