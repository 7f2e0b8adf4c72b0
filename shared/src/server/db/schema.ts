import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  customType,
  date,
  index,
  integer,
  json,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  unique,
  uniqueIndex,
  type AnyPgColumn,
} from 'drizzle-orm/pg-core';
import type { VideoMedia } from '../../contracts/schemas/media.ts';
import { dancerNameDisplays, type RoutineBundleRule } from '../../contracts/schemas/programme-rules.ts';
import { purchaseStatuses } from '../../contracts/constants.ts';

const createdAt = () => timestamp({ withTimezone: true }).notNull().defaultNow();
const uuidKey = () =>
  text()
    .primaryKey()
    .$defaultFn(() => randomUUID());

/**
 * Every picture the owner uploads (portfolio photos, event images, posters): the process-image job reads
 * the upload at `sourceKey`, writes a metadata-free master and its width/format variants under
 * `images/<id>/`, then deletes the upload. Served at `/api/photos/<id>` only once `status` is ready.
 */
export const images = pgTable(
  'images',
  {
    id: uuidKey(),
    purpose: text().notNull(),
    /** The upload as it came from the camera (GPS and all); gone once processed. */
    sourceKey: text().notNull(),
    originalName: text().notNull().default(''),
    status: text().notNull().default('pending'),
    /** Why processing refused the file, in words the owner can act on. */
    error: text(),
    width: integer(),
    height: integer(),
    /** The widths made (each in WebP and JPEG, and in AVIF up to MAX_AVIF_PIXELS), ascending. */
    widths: jsonb().$type<number[]>(),
    /** A few-pixel WebP data URL shown while the picture loads. */
    placeholder: text(),
    createdAt: createdAt(),
    processedAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    uniqueIndex('images_source_key_idx').on(t.sourceKey),
    index('images_purpose_idx').on(t.purpose, t.createdAt),
    check('images_purpose_check', sql`${t.purpose} in ('portfolio', 'event', 'poster')`),
    check('images_status_check', sql`${t.status} in ('pending', 'ready', 'failed')`),
  ],
);

export const portfolioItems = pgTable(
  'portfolio_items',
  {
    id: serial().primaryKey(),
    imageUrl: text().notNull(),
    /** Empty while the owner has not written it; a photo cannot be published without it. */
    alt: text().notNull(),
    category: text().notNull(),
    featured: boolean().notNull().default(false),
    /** Shown publicly once its image (if uploaded) is ready. Rows made before uploads are published. */
    published: boolean().notNull().default(true),
    /** Lower first, as for showcases. */
    position: integer().notNull().default(0),
    /** The uploaded picture shown; null for the built-in pictures under /api/images/. */
    imageId: text().references(() => images.id, { onDelete: 'set null' }),
    /** A replacement being processed: it takes imageId's place once ready, so the old one shows until then. */
    nextImageId: text().references(() => images.id, { onDelete: 'set null' }),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('portfolio_items_category_idx').on(t.category, t.position, t.id),
    index('portfolio_items_image_idx').on(t.imageId),
    index('portfolio_items_next_image_idx').on(t.nextImageId),
    check('portfolio_items_category_check', sql`${t.category} in ('solo', 'group', 'stage', 'studio')`),
    check('portfolio_items_position_check', sql`${t.position} >= 0`),
  ],
);

export const events = pgTable(
  'events',
  {
    id: serial().primaryKey(),
    title: text().notNull(),
    description: text().notNull(),
    // A calendar day, not an instant: it must never shift across time zones.
    date: date({ mode: 'string' }).notNull(),
    location: text().notNull(),
    eventType: text().notNull().default('competition'),
    imageUrl: text().notNull(),
    jotformUrl: text(),
    createdAt: createdAt(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('events_date_idx').on(t.date)],
);

export const contacts = pgTable(
  'contacts',
  {
    id: serial().primaryKey(),
    firstName: text().notNull(),
    lastName: text().notNull(),
    email: text().notNull(),
    // Null: the visitor did not say (shown as "Not given", never as "Other").
    eventType: text(),
    message: text().notNull(),
    createdAt: createdAt(),
    // Set by the contact-notification job once the owner has been e-mailed; the sweep looks for nulls.
    notifiedAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    index('contacts_created_at_idx').on(t.createdAt.desc()),
    index('contacts_unnotified_idx')
      .on(t.createdAt)
      .where(sql`${t.notifiedAt} is null`),
  ],
);

// The shape connect-pg-simple reads and writes.
export const sessions = pgTable(
  'sessions',
  {
    sid: text().primaryKey(),
    sess: json().notNull(),
    expire: timestamp({ precision: 6 }).notNull(),
  },
  (t) => [index('sessions_expire_idx').on(t.expire)],
);

export const showcases = pgTable(
  'showcases',
  {
    id: uuidKey(),
    name: text().notNull(),
    description: text().notNull(),
    orderPriority: integer().notNull().default(0),
    // Hidden showcases (and every video in them) leave the public site; existing rows stay public.
    published: boolean().notNull().default(true),
    // The showcase page's address (/videos/<slug>): kept when the showcase is renamed. A row made
    // without one gets a unique placeholder; the api always sets a readable one (showcase-slugs.ts).
    slug: text()
      .notNull()
      .default(sql`gen_random_uuid()::text`),
    // Performers are often children: per-video pages stay out of search engines unless ticked.
    showVideosInSearchEngines: boolean().notNull().default(false),
    // "Buy all": one price for every video in the showcase (docs/decisions/023); null: no bundle.
    bundlePriceCents: integer(),
    // Who reaches it: public (listed), unlisted (by its link only) or behind an access code
    // (docs/decisions/030). The code is stored encrypted so the owner can read it back to the studio.
    privacy: text({ enum: ['public', 'unlisted', 'code'] })
      .notNull()
      .default('public'),
    accessCodeEncrypted: text(),

    // Competition programmes (docs/decisions/032): how dancers' names show to the public, and the
    // "buy all of a dancer's routines" price rule (null: no such offer).
    dancerNames: text({ enum: dancerNameDisplays }).notNull().default('initial'),
    routineBundleRule: jsonb().$type<RoutineBundleRule>(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('showcases_slug_key').on(t.slug),
    check('showcases_dancer_names_check', sql`${t.dancerNames} in ('full', 'initial', 'hidden')`),
    index('showcases_order_idx').on(t.orderPriority, t.createdAt),
    check('showcases_order_priority_check', sql`${t.orderPriority} >= 0`),
    check('showcases_bundle_price_check', sql`${t.bundlePriceCents} is null or ${t.bundlePriceCents} > 0`),
    check('showcases_privacy_check', sql`${t.privacy} in ('public', 'unlisted', 'code')`),
    check('showcases_access_code_check', sql`${t.privacy} <> 'code' or ${t.accessCodeEncrypted} is not null`),
  ],
);

export const videoProcessingStates = ['queued', 'processing', 'ready', 'failed'] as const;
/** A showcase's earlier slugs: their addresses redirect (301) to the current one. */
export const showcaseSlugRedirects = pgTable('showcase_slug_redirects', {
  slug: text().primaryKey(),
  showcaseId: text()
    .notNull()
    .references(() => showcases.id, { onDelete: 'cascade' }),
  createdAt: createdAt(),
});

export const videos = pgTable(
  'videos',
  {
    id: uuidKey(),
    title: text().notNull(),
    description: text().notNull(),
    tags: text()
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    showcaseId: text().references(() => showcases.id, { onDelete: 'set null' }),
    priceCents: integer().notNull().default(0),
    awsKey: text().notNull(),
    previewUrl: text(),
    passwordProtected: boolean().notNull().default(false),
    // scrypt hash (see password.ts); never the password itself, never sent to a browser.
    passwordHash: text(),
    // Hidden: gone from every public list and page; its paid buyers keep their downloads.
    published: boolean().notNull().default(true),
    // The stored file's size when the owner last saved the video; null when no file was found.
    fileSize: bigint({ mode: 'number' }),
    createdAt: createdAt(),
    views: integer().notNull().default(0),
    downloads: integer().notNull().default(0),
    // Visits of the video's page (once per address an hour), for the season view's conversion (issue 30).
    visits: integer().notNull().default(0),
    // The process-video job's state and findings for the file under awsKey (docs/decisions/022);
    // a new key clears them. Null state: never queued (videos from before the job existed).
    processingState: text({ enum: videoProcessingStates }),
    processingError: text(),
    media: jsonb().$type<VideoMedia>(),
    // Taken down (a removal request): off the public site like a hidden video, and its buyers see
    // "withdrawn" instead of a player or download. Always hidden while set.
    withdrawnAt: timestamp({ withTimezone: true }),

    // The programme entry this video records (angles and re-runs share one); see programmeEntries.
    entryId: text().references((): AnyPgColumn => programmeEntries.id, { onDelete: 'set null' }),
    // The owner wrote the title, description and tags herself: the entry's changes leave them alone.
    ownText: boolean().notNull().default(true),
    // The bulk upload's content hash (S3's multipart ETag of the file's parts, decision 033): the same
    // file uploaded twice is one video. Null for videos saved one by one.
    contentHash: text(),
  },
  (t) => [
    index('videos_entry_idx').on(t.entryId),
    uniqueIndex('videos_content_hash_key')
      .on(t.contentHash)
      .where(sql`${t.contentHash} is not null`),
    index('videos_showcase_idx').on(t.showcaseId, t.createdAt.desc(), t.id.desc()),
    // Keyset pages: a showcase's videos above, the whole library here.
    index('videos_created_at_idx').on(t.createdAt.desc(), t.id.desc()),
    check('videos_price_cents_check', sql`${t.priceCents} >= 0`),
    check('videos_counters_check', sql`${t.views} >= 0 and ${t.downloads} >= 0`),
    check('videos_visits_check', sql`${t.visits} >= 0`),
    check(
      'videos_processing_state_check',
      sql`${t.processingState} in ('queued', 'processing', 'ready', 'failed')`,
    ),
    check(
      'videos_protected_password_check',
      sql`not ${t.passwordProtected} or ${t.passwordHash} is not null`,
    ),
    check('videos_withdrawn_hidden_check', sql`${t.withdrawnAt} is null or not ${t.published}`),
  ],
);

export { purchaseStatuses, type PurchaseStatus } from '../../contracts/constants.ts';

/**
 * One row per checkout (Stripe Checkout Session or an offline order the owner records); what it buys
 * is in purchase_items. amountCents is what the buyer pays (once paid: what Stripe says they paid).
 */
export const purchases = pgTable(
  'purchases',
  {
    id: uuidKey(),
    checkoutSessionId: text().unique(),
    buyerName: text().notNull(),
    buyerEmail: text().notNull(),
    amountCents: integer().notNull(),
    currency: text().notNull(),
    status: text({ enum: purchaseStatuses }).notNull().default('pending'),
    source: text({ enum: ['stripe', 'offline'] })
      .notNull()
      .default('stripe'),
    paymentIntentId: text().unique(),
    createdAt: createdAt(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    paidAt: timestamp({ withTimezone: true }),
    // Set once the buyer's receipt has gone out, so a retried job does not send it twice.
    receiptSentAt: timestamp({ withTimezone: true }),
    // The buyer ticked "remind me" at checkout (never pre-ticked): one e-mail if the session expires.
    reminderConsent: boolean().notNull().default(false),
    reminderSentAt: timestamp({ withTimezone: true }),
    // Paid through Stripe's recovery link of an expired session (that session's id), for the counts.
    recoveredFromSessionId: text(),
  },
  (t) => [
    index('purchases_created_at_idx').on(t.createdAt.desc()),
    // The buyer's library finds a buyer's purchases by address, whatever its case and spaces.
    index('purchases_buyer_email_idx').on(sql`lower(btrim(${t.buyerEmail}))`),
    check('purchases_amount_check', sql`${t.amountCents} >= 0`),
    check('purchases_status_check', sql`${t.status} in ('pending', 'paid', 'failed', 'refunded', 'expired')`),
  ],
);

/**
 * What a purchase buys, one row per video (docs/decisions/023). A showcase bundle is one row without a
 * video until the purchase is paid; fulfilment then replaces it with a row per video the showcase holds
 * at that moment (bundleShowcaseId set), in the same transaction as the sale. Once paid, amountCents is
 * each video's share of what was paid, so the items of a purchase add up to its amount.
 */
export const purchaseItems = pgTable(
  'purchase_items',
  {
    id: uuidKey(),
    purchaseId: text()
      .notNull()
      .references(() => purchases.id, { onDelete: 'cascade' }),
    videoId: text().references(() => videos.id, { onDelete: 'restrict' }),
    bundleShowcaseId: text().references(() => showcases.id, { onDelete: 'set null' }),
    /** The video's title (the showcase's name for an unexpanded bundle) when bought, for receipts. */
    title: text().notNull(),
    /** The database's price when the buyer checked out (the bundle price for a bundle row). */
    listPriceCents: integer().notNull(),
    amountCents: integer().notNull(),
    position: integer().notNull().default(0),
  },
  (t) => [
    index('purchase_items_purchase_idx').on(t.purchaseId, t.position),
    uniqueIndex('purchase_items_purchase_video_key').on(t.purchaseId, t.videoId),
    index('purchase_items_video_idx').on(t.videoId),
    // A showcase's unexpanded bundles (the season view's checkouts; a showcase's deletion).
    index('purchase_items_bundle_showcase_idx')
      .on(t.bundleShowcaseId)
      .where(sql`${t.bundleShowcaseId} is not null`),
    check('purchase_items_amount_check', sql`${t.amountCents} >= 0 and ${t.listPriceCents} >= 0`),
  ],
);

export const sales = pgTable(
  'sales',
  {
    id: uuidKey(),
    // The video of a one-video purchase; null for a cart or bundle (its items say what was sold).
    videoId: text().references(() => videos.id, { onDelete: 'restrict' }),
    purchaseId: text().references(() => purchases.id, { onDelete: 'restrict' }),
    amountCents: integer().notNull(),
    currency: text().notNull().default('nzd'),
    customerEmail: text().notNull(),
    // The payment intent (or offline_<uuid>): one sale per payment, whatever retries happen.
    transactionId: text().notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('sales_transaction_id_key').on(t.transactionId),
    index('sales_created_at_idx').on(t.createdAt.desc()),
    check('sales_amount_check', sql`${t.amountCents} >= 0`),
  ],
);

/** The quotes on the home page, in the owner's order; hidden ones stay for later. */
export const testimonials = pgTable(
  'testimonials',
  {
    id: serial().primaryKey(),
    name: text().notNull(),
    quote: text().notNull(),
    event: text(),
    position: integer().notNull().default(0),
    published: boolean().notNull().default(true),
    createdAt: createdAt(),
  },
  (t) => [index('testimonials_position_idx').on(t.position, t.id)],
);

/** Stripe events already handled, so a redelivery is acknowledged without work. */
export const stripeEvents = pgTable('stripe_events', {
  id: text().primaryKey(),
  type: text().notNull(),
  processedAt: createdAt(),
});

// view: a stream link (a play); download: a download link; visit: the video's page was opened.
export const videoStatKinds = ['view', 'download', 'visit'] as const;
export type VideoStatKind = (typeof videoStatKinds)[number];

/**
 * Outbox of view/download events. The api inserts one row per event; the count-video-stat job
 * applies every unapplied row to the counters in one statement, so nothing is lost or doubled.
 */
export const videoStatEvents = pgTable(
  'video_stat_events',
  {
    id: uuidKey(),
    videoId: text()
      .notNull()
      .references(() => videos.id, { onDelete: 'cascade' }),
    kind: text({ enum: videoStatKinds }).notNull(),
    createdAt: createdAt(),
    appliedAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    index('video_stat_events_unapplied_idx')
      .on(t.createdAt)
      .where(sql`${t.appliedAt} is null`),
    check('video_stat_events_kind_check', sql`${t.kind} in ('view', 'download', 'visit')`),
  ],
);

export const syncRuns = pgTable(
  'sync_runs',
  {
    id: serial().primaryKey(),
    jobId: text(),
    trigger: text({ enum: ['admin', 'schedule', 'cli'] }).notNull(),
    status: text({ enum: ['running', 'succeeded', 'failed'] })
      .notNull()
      .default('running'),
    startedAt: createdAt(),
    finishedAt: timestamp({ withTimezone: true }),
    result: jsonb(),
    failureReason: text(),
  },
  (t) => [index('sync_runs_started_at_idx').on(t.startedAt.desc())],
);

/**
 * One request for a buyer's library sign-in link (decision 024). The api writes the row for every
 * request and queues buyer-sign-in; the worker sets the token (stored hashed) and e-mails it only if
 * the address has paid videos, and deletes the row otherwise. `email` is trimmed and lower-case.
 */
export const buyerSignInLinks = pgTable(
  'buyer_sign_in_links',
  {
    id: uuidKey(),
    email: text().notNull(),
    tokenHash: text().unique(),
    expiresAt: timestamp({ withTimezone: true }),
    sentAt: timestamp({ withTimezone: true }),
    usedAt: timestamp({ withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('buyer_sign_in_links_created_at_idx').on(t.createdAt)],
);

/** A buyer's signed-in browser: the cookie holds a random id, the table its SHA-256 (decision 024). */
export const buyerSessions = pgTable(
  'buyer_sessions',
  {
    idHash: text().primaryKey(),
    email: text().notNull(),
    createdAt: createdAt(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
  },
  (t) => [index('buyer_sessions_expires_at_idx').on(t.expiresAt)],
);

/**
 * The owner's GST registration (one row, id 1; absent: the environment's defaults). Documents copy
 * what they need when issued, so a later change never alters an issued document.
 */
export const gstSettings = pgTable(
  'gst_settings',
  {
    id: integer().primaryKey().default(1),
    registered: boolean().notNull(),
    /** Digits only (8 or 9), checked with Inland Revenue's check digit. */
    gstNumber: text(),
    legalName: text().notNull(),
    address: text().notNull(),
    /** 1500 = 15 %. */
    rateBasisPoints: integer().notNull(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('gst_settings_one_row_check', sql`${t.id} = 1`),
    check('gst_settings_number_check', sql`not ${t.registered} or ${t.gstNumber} is not null`),
    check('gst_settings_rate_check', sql`${t.rateBasisPoints} between 0 and 10000`),
  ],
);

/**
 * Gap-free document numbers: a row per sequence, advanced with UPDATE ... RETURNING inside the
 * transaction that issues the document, so a rollback gives the number back and concurrent issuers
 * wait on the row lock (a SEQUENCE would skip numbers on rollback).
 */
export const documentCounters = pgTable('document_counters', {
  name: text().primaryKey(),
  lastNumber: integer().notNull().default(0),
});

export const taxDocumentKinds = ['invoice', 'credit-note'] as const;
export type TaxDocumentKind = (typeof taxDocumentKinds)[number];

/**
 * Taxable supply information (an invoice or receipt per paid purchase) and supply correction
 * information (a credit note per refund), numbered in one sequence. `content` is what the document
 * says, frozen when issued; the PDF and e-mail text are rendered from it.
 */
export const taxDocuments = pgTable(
  'tax_documents',
  {
    id: uuidKey(),
    number: integer().notNull().unique(),
    kind: text({ enum: taxDocumentKinds }).notNull(),
    purchaseId: text()
      .notNull()
      .references(() => purchases.id, { onDelete: 'restrict' }),
    /** The invoice a credit note corrects. */
    creditedDocumentId: text(),
    issuedAt: createdAt(),
    /** GST-inclusive amount, positive for both kinds (a credit note's amount is given back). */
    totalCents: integer().notNull(),
    /** 0 when the owner was not registered at issue. */
    gstCents: integer().notNull(),
    registered: boolean().notNull(),
    /** How it was paid: 'card' (Stripe) or 'offline'. */
    paymentMethod: text().notNull(),
    /** A credit note: the purchase's refunded total once it is issued (one note per refund step). */
    refundedCentsAfter: integer(),
    content: jsonb().notNull(),
    emailedAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    uniqueIndex('tax_documents_one_invoice_idx')
      .on(t.purchaseId)
      .where(sql`${t.kind} = 'invoice'`),
    uniqueIndex('tax_documents_credit_step_idx')
      .on(t.purchaseId, t.refundedCentsAfter)
      .where(sql`${t.kind} = 'credit-note'`),
    index('tax_documents_issued_at_idx').on(t.issuedAt),
    check('tax_documents_kind_check', sql`${t.kind} in ('invoice', 'credit-note')`),
    check('tax_documents_amount_check', sql`${t.totalCents} > 0 and ${t.gstCents} >= 0`),
  ],
);

/** Stripe's fee on a card payment, read by the worker from the charge's balance transaction. */
export const paymentFees = pgTable('payment_fees', {
  purchaseId: text()
    .primaryKey()
    .references(() => purchases.id, { onDelete: 'cascade' }),
  chargeId: text().notNull(),
  balanceTransactionId: text().notNull(),
  /** Stripe's payment method type: card, afterpay_clearpay, klarna, ... */
  methodType: text(),
  feeCents: integer().notNull(),
  netCents: integer().notNull(),
  availableOn: timestamp({ withTimezone: true }),
  readAt: createdAt(),
});

/**
 * Stripe's payouts to the owner's bank, read by the worker (read-stripe-payouts) for the GST report's
 * "what the bank will show"; a payout's status moves (pending, in_transit, paid, or failed/canceled),
 * so each read updates the row.
 */
export const stripePayouts = pgTable(
  'stripe_payouts',
  {
    /** Stripe's id, po_... */
    id: text().primaryKey(),
    amountCents: integer().notNull(),
    currency: text().notNull(),
    /** The New Zealand day Stripe expects it in the bank (its arrival_date). */
    arrivalOn: date({ mode: 'string' }).notNull(),
    /** pending, in_transit, paid, failed or canceled. */
    status: text().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull(),
    /** The worker's last read of it. */
    readAt: createdAt(),
  },
  (t) => [index('stripe_payouts_arrival_on_idx').on(t.arrivalOn)],
);

/** Addresses that asked for no more unfinished-checkout reminders (trimmed, lower-case). */
export const reminderUnsubscribes = pgTable('reminder_unsubscribes', {
  email: text().primaryKey(),
  createdAt: createdAt(),
});

export const showcasePrivacies = ['public', 'unlisted', 'code'] as const;
export type ShowcasePrivacy = (typeof showcasePrivacies)[number];

/**
 * A request to take a video down (a parent, a dancer or a studio), from its public page. The owner is
 * e-mailed (notifiedAt set once she was) and works the queue on /admin/removal-requests.
 */
export const removalRequests = pgTable(
  'removal_requests',
  {
    id: uuidKey(),
    /** What is asked about: a video (its page's "Request removal") or a dancer (her page's). */
    subjectKind: text({ enum: ['video', 'dancer'] })
      .notNull()
      .default('video'),
    videoId: text().references(() => videos.id, { onDelete: 'set null' }),
    /** A dancer of a programme (decision 032): her name and her routines. Null once her name is removed. */
    dancerId: text().references(() => programmeDancers.id, { onDelete: 'set null' }),
    /**
     * What it is about when asked, so the request still reads after its subject is deleted: the video's
     * title, or the dancer's name and her competition.
     */
    videoTitle: text().notNull(),
    requester: text({ enum: ['parent', 'dancer', 'studio'] }).notNull(),
    reason: text().notNull(),
    email: text().notNull(),
    status: text({ enum: ['open', 'done', 'declined'] })
      .notNull()
      .default('open'),
    createdAt: createdAt(),
    notifiedAt: timestamp({ withTimezone: true }),
    resolvedAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    index('removal_requests_created_at_idx').on(t.createdAt.desc()),
    index('removal_requests_unnotified_idx')
      .on(t.createdAt)
      .where(sql`${t.notifiedAt} is null`),
    check('removal_requests_requester_check', sql`${t.requester} in ('parent', 'dancer', 'studio')`),
    check('removal_requests_subject_kind_check', sql`${t.subjectKind} in ('video', 'dancer')`),
    check('removal_requests_status_check', sql`${t.status} in ('open', 'done', 'declined')`),
  ],
);

/**
 * Every hide, unhide, delete and takedown of a video or showcase, and every dancer's name removed from
 * a programme: who, what, when and why.
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: serial().primaryKey(),
    /** 'owner' for the admin session (one owner, no accounts); 'system' for jobs. */
    actor: text().notNull(),
    action: text({ enum: ['hide', 'unhide', 'delete', 'takedown', 'restore'] }).notNull(),
    subjectKind: text({ enum: ['video', 'showcase', 'dancer'] }).notNull(),
    subjectId: text().notNull(),
    /** The title or name at the time, so the entry reads after a delete. */
    subjectName: text().notNull(),
    reason: text(),
    createdAt: createdAt(),
  },
  (t) => [
    index('audit_log_created_at_idx').on(t.createdAt.desc()),
    check('audit_log_action_check', sql`${t.action} in ('hide', 'unhide', 'delete', 'takedown', 'restore')`),
  ],
);

// Competition programmes (docs/decisions/032). Names keep their spelling for display; search_key is the
// same text lower case without diacritics (library_search_text, migration catalogue_search), matched
// by trigrams.
const programmeSearchKey = (column: string) =>
  text().generatedAlwaysAs(sql.raw(`btrim(library_search_text(${column}, NULL, NULL))`));

/** A dance studio as a showcase's programme names it. */
export const programmeStudios = pgTable(
  'programme_studios',
  {
    id: uuidKey(),
    showcaseId: text()
      .notNull()
      .references(() => showcases.id, { onDelete: 'cascade' }),
    name: text().notNull(),
    searchKey: programmeSearchKey('name').notNull(),
  },
  (t) => [
    uniqueIndex('programme_studios_showcase_key').on(t.showcaseId, t.searchKey),
    // GiST: the typo pass's few candidates among a season's 500 studios (decisions 035 and 041).
    index('programme_studios_search_idx').using('gist', t.searchKey.op('gist_trgm_ops')),
    // The start of each word ("studio 4" as it is typed), the search's first and cheap pass (decision 035).
    index('programme_studios_words_idx')
      .using('gin', sql`to_tsvector('simple', ${t.searchKey})`)
      .with({ fastupdate: false }),
  ],
);

/** A dancer of one showcase's programme (a child may dance at many competitions: one row each). */
export const programmeDancers = pgTable(
  'programme_dancers',
  {
    id: uuidKey(),
    showcaseId: text()
      .notNull()
      .references(() => showcases.id, { onDelete: 'cascade' }),
    name: text().notNull(),
    searchKey: programmeSearchKey('name').notNull(),
  },
  (t) => [
    uniqueIndex('programme_dancers_showcase_key').on(t.showcaseId, t.searchKey),
    // GIN, where studios keep GiST (decision 041): the typo pass filters names by likeness and sorts
    // the few it finds, about 0.1 ms where GiST's signatures took 1 ms over 5,600 names. Studios are few
    // enough (500) that the planner seq-scans them over a GIN index, and GiST answers there in 0.05 ms.
    index('programme_dancers_search_idx')
      .using('gin', t.searchKey.op('gin_trgm_ops'))
      .with({ fastupdate: false }),
    index('programme_dancers_words_idx')
      .using('gin', sql`to_tsvector('simple', ${t.searchKey})`)
      // No pending list: searches read only the index (migration 0024, decision 038).
      .with({ fastupdate: false }),
  ],
);

/**
 * One entry (item) of a showcase's programme: "47" or "47b" as printed, `entrySort` its number (47)
 * for order and number searches, the section ("Junior Solo Jazz 10 & Under") and routine title.
 */
export const programmeEntries = pgTable(
  'programme_entries',
  {
    id: uuidKey(),
    showcaseId: text()
      .notNull()
      .references(() => showcases.id, { onDelete: 'cascade' }),
    entryNumber: text().notNull(),
    entrySort: integer().notNull(),
    section: text().notNull().default(''),
    title: text().notNull().default(''),
    studioId: text().references(() => programmeStudios.id, { onDelete: 'set null' }),
    sectionKey: programmeSearchKey("section || ' ' || title").notNull(),
    createdAt: createdAt(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('programme_entries_number_key').on(t.showcaseId, sql`lower(${t.entryNumber})`),
    // Migration 0031 adds INCLUDE (entry_number, id): an entry-number search reads the season's entries
    // of a number from the index alone (decision 042).
    index('programme_entries_sort_idx').on(t.entrySort, t.showcaseId),
    // A showcase's entries in programme order. Migration 0027 adds INCLUDE (section_key, id), which
    // drizzle cannot declare: the refresh of a showcase's words and places (decision 042) reads its
    // entries from the index alone.
    index('programme_entries_showcase_order_idx').on(t.showcaseId, t.entrySort, t.entryNumber),
    index('programme_entries_studio_idx').on(t.studioId),
  ],
);

/** Who dances in which entry, in the programme's order. */
export const programmeEntryDancers = pgTable(
  'programme_entry_dancers',
  {
    entryId: text()
      .notNull()
      .references(() => programmeEntries.id, { onDelete: 'cascade' }),
    dancerId: text()
      .notNull()
      .references(() => programmeDancers.id, { onDelete: 'cascade' }),
    position: integer().notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.entryId, t.dancerId] }),
    index('programme_entry_dancers_dancer_idx').on(t.dancerId),
    // A routine card's dancers in programme order, read from the index alone (no sort, no heap).
    index('programme_entry_dancers_entry_order_idx').on(t.entryId, t.position, t.dancerId),
  ],
);

/**
 * A showcase's entries by their place in its programme (0, 1, 2 ... in entry-number order): what the
 * bits of programme_section_words count (decision 042). Kept by statement triggers on
 * programme_entries (migration section_word_index), never written by the api.
 */
export const programmeEntryPositions = pgTable(
  'programme_entry_positions',
  {
    showcaseId: text()
      .notNull()
      .references(() => showcases.id, { onDelete: 'cascade' }),
    position: integer().notNull(),
    // No foreign key: the triggers rewrite a showcase's places whole whenever its entries change.
    entryId: text().notNull(),
  },
  // The migration adds INCLUDE (entry_id) to the key: a found place reads its entry from the index alone.
  (t) => [primaryKey({ columns: [t.showcaseId, t.position] })],
);

/** PostgreSQL's `bit varying`, as its text ('0110...'): drizzle has no column type for it. */
const bitVarying = customType<{ data: string }>({ dataType: () => 'bit varying' });

/**
 * Each word of a showcase's sections and routine titles (their search keys), with which of its entries
 * hold it: bit i is the entry at programme_entry_positions' place i. A section-word search reads a
 * few rows a typed word (those starting with it, word by word in the "C" collation the migration
 * gives), ORs them per showcase, ANDs the typed words, and reads the first places set (decision 042).
 * Kept by statement triggers on programme_entries, never written by the api.
 */
export const programmeSectionWords = pgTable(
  'programme_section_words',
  {
    word: text().notNull(),
    showcaseId: text()
      .notNull()
      .references(() => showcases.id, { onDelete: 'cascade' }),
    entries: bitVarying().notNull(),
  },
  // Migration 0032 adds INCLUDE (entries) to the key: a search reads a word's bits from the index alone.
  (t) => [
    primaryKey({ columns: [t.word, t.showcaseId] }),
    index('programme_section_words_showcase_idx').on(t.showcaseId),
  ],
);

/**
 * Each entry's routine card as the public reads it (number, section, title, studio, dancers in
 * programme order with their names as the showcase shows them, listed published videos): a search or
 * a dancer's page reads one row per routine instead of building it (decisions 040 and 042). Kept by
 * statement triggers on the entries, their dancers, dancers, studios, videos and showcases (migrations
 * programme_routine_cards and routine_cards_as_shown), never written by the api.
 */
export const programmeRoutineCards = pgTable('programme_routine_cards', {
  entryId: text()
    .primaryKey()
    .references(() => programmeEntries.id, { onDelete: 'cascade' }),
  // json, not jsonb: kept as written, so a search sends it on as it is read (decision 042).
  card: json().notNull(),
});

/** The owner's column mapping for programmes whose header row hashes to `headerHash`. */
export const programmeMappings = pgTable('programme_mappings', {
  headerHash: text().primaryKey(),
  mapping: jsonb().notNull(),
  updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

/**
 * One evening's bulk upload to a showcase (decision 033): its files, matched to the programme's
 * entries, become videos when the owner confirms (and, after that, as each file arrives).
 */
export const uploadBatches = pgTable(
  'upload_batches',
  {
    id: uuidKey(),
    showcaseId: text()
      .notNull()
      .references(() => showcases.id, { onDelete: 'cascade' }),
    // The videos go on sale once ready (a failed one never does), or stay hidden; at this price.
    publish: boolean().notNull().default(false),
    priceCents: integer().notNull().default(0),
    confirmedAt: timestamp({ withTimezone: true }),
    /** The entry her first camera-named file is (C0047.MP4 is a counter): the rest follow in order. */
    firstEntryId: text().references(() => programmeEntries.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [
    index('upload_batches_showcase_idx').on(t.showcaseId, t.createdAt),
    check('upload_batches_price_check', sql`${t.priceCents} >= 0`),
  ],
);

export const uploadFileStates = ['uploading', 'uploaded', 'duplicate', 'failed'] as const;
export const uploadMatchKinds = ['number', 'order', 'hand'] as const;

/**
 * A file of a bulk upload: one row per name and size in its batch, so a reload or a second tab finds
 * the same multipart upload and continues it. `uploadId` is the storage's multipart upload while the
 * file is uploading; the abandoned-upload sweep aborts those untouched for days.
 */
export const uploadFiles = pgTable(
  'upload_files',
  {
    id: uuidKey(),
    batchId: text()
      .notNull()
      .references(() => uploadBatches.id, { onDelete: 'cascade' }),
    fileName: text().notNull(),
    size: bigint({ mode: 'number' }).notNull(),
    contentType: text().notNull(),
    // When the camera recorded it (the file's metadata), for matching camera-named files by order.
    capturedAt: timestamp({ withTimezone: true }),
    awsKey: text().notNull(),
    uploadId: text(),
    partSize: integer().notNull(),
    state: text({ enum: uploadFileStates }).notNull().default('uploading'),
    error: text(),
    entryId: text().references(() => programmeEntries.id, { onDelete: 'set null' }),
    matchedBy: text({ enum: uploadMatchKinds }),
    contentHash: text(),
    videoId: text().references(() => videos.id, { onDelete: 'set null' }),
    // When its video first became ready and, the batch asking so, went on sale: only once, so a video
    // she hides later stays hidden when it is processed again.
    releasedAt: timestamp({ withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('upload_files_batch_file_key').on(t.batchId, t.fileName, t.size),
    index('upload_files_uploading_idx')
      .on(t.updatedAt)
      .where(sql`${t.state} = 'uploading'`),
    index('upload_files_video_idx').on(t.videoId),
    check('upload_files_state_check', sql`${t.state} in ('uploading', 'uploaded', 'duplicate', 'failed')`),
    check('upload_files_size_check', sql`${t.size} > 0`),
  ],
);

/**
 * The entries the owner marked as not filmed while matching a batch's files: camera-named files then
 * skip them, and the season view counts them apart from entries still missing a file. Kept with the
 * batch so a reload or another laptop sees them; gone with the entry or the batch.
 */
export const uploadNotFilmed = pgTable(
  'upload_not_filmed',
  {
    batchId: text()
      .notNull()
      .references(() => uploadBatches.id, { onDelete: 'cascade' }),
    entryId: text()
      .notNull()
      .references(() => programmeEntries.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.batchId, t.entryId] }),
    // The season view asks of each entry whether any batch marked it.
    index('upload_not_filmed_entry_idx').on(t.entryId),
  ],
);

/**
 * "Tell me when it is online" (decision 035): a visitor's address waiting for a video of one entry or
 * one dancer. Nothing but the confirmation is sent until `confirmedAt`; the row is deleted when its
 * e-mail goes out, when the address unsubscribes, with its entry or dancer, or after 90 days
 * (retention sweep). `email` is trimmed and lower-case.
 */
export const onlineAlerts = pgTable(
  'online_alerts',
  {
    id: uuidKey(),
    email: text().notNull(),
    entryId: text().references(() => programmeEntries.id, { onDelete: 'cascade' }),
    dancerId: text().references(() => programmeDancers.id, { onDelete: 'cascade' }),
    /** Routines of the entry or dancer online when asked: the e-mail goes when more are. */
    onlineRoutines: integer().notNull().default(0),
    confirmSentAt: timestamp({ withTimezone: true }),
    confirmedAt: timestamp({ withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    unique('online_alerts_target_key').on(t.email, t.entryId, t.dancerId).nullsNotDistinct(),
    index('online_alerts_entry_idx').on(t.entryId),
    index('online_alerts_dancer_idx').on(t.dancerId),
    index('online_alerts_created_at_idx').on(t.createdAt),
    check('online_alerts_one_target', sql`num_nonnulls(${t.entryId}, ${t.dancerId}) = 1`),
  ],
);

export const searchMissSources = ['library', 'programme'] as const;

/**
 * Searches visitors made that found nothing (issue 30, decision 034): the normalised words and a count
 * per day and source, scoped to a showcase when the search was. No address, session or time of day;
 * the words may hold a child's name, so rows go after 90 days (the retention sweep) and only the owner
 * sees them.
 */
export const searchMisses = pgTable(
  'search_misses',
  {
    day: date({ mode: 'string' }).notNull(),
    source: text({ enum: searchMissSources }).notNull(),
    showcaseId: text().references(() => showcases.id, { onDelete: 'cascade' }),
    query: text().notNull(),
    count: integer().notNull().default(1),
  },
  (t) => [
    unique('search_misses_key').on(t.day, t.source, t.showcaseId, t.query).nullsNotDistinct(),
    index('search_misses_showcase_idx').on(t.showcaseId, t.day),
    check('search_misses_source_check', sql`${t.source} in ('library', 'programme')`),
    check('search_misses_count_check', sql`${t.count} > 0`),
  ],
);
