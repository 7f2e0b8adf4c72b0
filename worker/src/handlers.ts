import type { HandlerMap } from './context.ts';
import { buyerSignIn } from './jobs/buyer-sign-in.ts';
import { contactNotification } from './jobs/contact-notification.ts';
import { countVideoStat } from './jobs/count-video-stat.ts';
import { makeVideoStream } from './jobs/make-video-stream.ts';
import { processVideo } from './jobs/process-video.ts';
import { processImage } from './jobs/process-image.ts';
import { purchaseReceipt } from './jobs/purchase-receipt.ts';
import { pruneVideoStatEvents } from './jobs/prune-video-stat-events.ts';
import { recordSale } from './jobs/record-sale.ts';
import { removalRequestNotification } from './jobs/removal-request-notification.ts';
import { retentionSweep } from './jobs/retention-sweep.ts';
import { sweepAbandonedUploads } from './jobs/sweep-abandoned-uploads.ts';
import { securityAlert } from './jobs/security-alert.ts';
import { syncOrderLinks } from './jobs/sync-order-links.ts';
import { taxDocumentMail } from './jobs/tax-document-mail.ts';
import { readPaymentFee } from './jobs/read-payment-fee.ts';
import { readStripePayouts } from './jobs/read-stripe-payouts.ts';
import { checkoutReminder } from './jobs/checkout-reminder.ts';
import { onlineAlertConfirm, onlineAlertNotify } from './jobs/online-alerts.ts';

/** One handler per job; typecheck fails while a job of shared/src/server/queue/jobs.ts has none. */
export const handlers: HandlerMap = {
  'count-video-stat': countVideoStat,
  'contact-notification': contactNotification,
  'record-sale': recordSale,
  'purchase-receipt': purchaseReceipt,
  'sync-order-links': syncOrderLinks,
  'process-video': processVideo,
  'make-video-stream': makeVideoStream,
  'security-alert': securityAlert,
  'prune-video-stat-events': pruneVideoStatEvents,
  'process-image': processImage,
  'buyer-sign-in': buyerSignIn,
  'tax-document-mail': taxDocumentMail,
  'read-payment-fee': readPaymentFee,
  'read-stripe-payouts': readStripePayouts,
  'checkout-reminder': checkoutReminder,
  'removal-request-notification': removalRequestNotification,
  'retention-sweep': retentionSweep,
  'online-alert-confirm': onlineAlertConfirm,
  'online-alert-notify': onlineAlertNotify,
  'sweep-abandoned-uploads': sweepAbandonedUploads,
};
