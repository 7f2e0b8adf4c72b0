import { z } from 'zod';
import { gstNumberDigits, isValidGstNumber } from '../gst/ird-number.ts';
import { calendarDateSchema } from './requests.ts';

// The owner's GST settings and the GST report (docs/decisions/029). Browser-safe.

export const gstSettingsSchema = z
  .object({
    registered: z.boolean(),
    /** As typed ("49-091-850"); stored as digits. Required when registered. */
    gstNumber: z
      .string()
      .trim()
      .max(20)
      .nullable()
      .transform((value) => (value ? value : null))
      .refine((value) => value === null || isValidGstNumber(value), {
        message: 'This is not a valid GST number (IRD check digit)',
      })
      .transform((value) => (value === null ? null : gstNumberDigits(value))),
    legalName: z.string().trim().min(1, 'The business’s legal name is required').max(200),
    address: z.string().trim().max(500),
    /** 15 % is 1500. */
    rateBasisPoints: z.number().int().min(0).max(10_000),
  })
  .refine((value) => !value.registered || value.gstNumber !== null, {
    message: 'A GST-registered business needs its GST number',
    path: ['gstNumber'],
  });
export type GstSettings = z.output<typeof gstSettingsSchema>;
export type GstSettingsInput = z.input<typeof gstSettingsSchema>;

/** GET /api/admin/gst/report?from&to: days are New Zealand days, both included. */
export const gstPeriodSchema = z
  .object({ from: calendarDateSchema, to: calendarDateSchema })
  .refine((value) => value.from <= value.to, {
    message: 'The period must end after it starts',
    path: ['to'],
  });
export type GstPeriod = z.infer<typeof gstPeriodSchema>;

const methodRowSchema = z.object({
  method: z.string(),
  salesCents: z.number().int(),
  salesGstCents: z.number().int(),
  refundsCents: z.number().int(),
  refundsGstCents: z.number().int(),
  netCents: z.number().int(),
  netGstCents: z.number().int(),
  /** Stripe's fees on the period's card payments (null for offline). */
  feesCents: z.number().int().nullable(),
  invoices: z.number().int(),
  creditNotes: z.number().int(),
});
export type GstReportRow = z.infer<typeof methodRowSchema>;

/** A Stripe payout to the owner's bank, as the worker last read it. */
const payoutSchema = z.object({
  id: z.string(),
  /** The New Zealand day Stripe expects it in the bank. */
  arrivalOn: z.string(),
  /** pending, in_transit, paid, failed or canceled. */
  status: z.string(),
  amountCents: z.number().int(),
  currency: z.string(),
});
export type GstReportPayout = z.infer<typeof payoutSchema>;

export const gstReportSchema = z.object({
  from: z.string(),
  to: z.string(),
  registered: z.boolean(),
  total: methodRowSchema,
  byMethod: z.array(methodRowSchema),
  /** Payments whose Stripe fee the worker has not read yet. */
  feesPending: z.number().int(),
  /** Stripe's payouts arriving in the period (what the bank statement shows), by arrival day. */
  payouts: z.array(payoutSchema),
  /** The NZD payouts of the period that are paid or on their way (not failed or canceled). */
  payoutsCents: z.number().int(),
  /** When the worker last read Stripe's payouts (ISO); null before its first read of any. */
  payoutsReadAt: z.string().nullable(),
});
export type GstReport = z.infer<typeof gstReportSchema>;

/** POST /api/admin/purchases/{id}/refund: an offline payment given back (in part or whole). */
export const offlineRefundRequestSchema = z.object({
  amountCents: z.number().int().positive().max(100_000_000),
  reason: z.string().trim().max(200).optional(),
});

/** A document the buyer or owner can open as a PDF. */
export const documentLinkSchema = z.object({
  id: z.string(),
  kind: z.enum(['invoice', 'credit-note']),
  /** "Tax invoice INV-000012", "Receipt INV-000013", "Credit note CN-000014". */
  title: z.string(),
  totalCents: z.number().int(),
  issuedOn: z.string(),
  url: z.string(),
});
export type DocumentLink = z.infer<typeof documentLinkSchema>;
