import { checkoutRequestSchema, type CheckoutRequest, type CheckoutResponse } from '../../lib/schemas.ts';
import { api, ApiError, isApiError } from '../../lib/api.ts';

/** The name and e-mail the purchase and payment-options forms ask for, checked as the api checks them. */
export const buyerSchema = checkoutRequestSchema.pick({
  customerName: true,
  customerEmail: true,
  remindMe: true,
});
/** remindMe: the buyer's own tick for one reminder if they do not finish paying (never pre-ticked). */
export type Buyer = { customerName: string; customerEmail: string; remindMe?: boolean | undefined };
export const emptyBuyer: Buyer = { customerName: '', customerEmail: '' };
export const hasBuyerDetails = (buyer: Partial<Buyer>) =>
  (buyer.customerName ?? '').trim() !== '' && (buyer.customerEmail ?? '').trim() !== '';

/** When the payment tab is not open after this long, the visitor gets the other options. */
export const PAYMENT_TAB_FALLBACK_MS = 3_000;

/**
 * The browsers inside Facebook, Instagram and Messenger (parents arrive from their posts): they often
 * swallow a new tab, so the payment page opens in the same tab there.
 */
export const isInAppBrowser = (userAgent = navigator.userAgent) =>
  /\bFBAN\/|\bFBAV\/|\bFB_IAB\/|\bFBIOS\b|\bInstagram\b|\bMessenger\b/i.test(userAgent);

/**
 * Opens an empty tab for the card payment page. Call it synchronously inside the click (or submit)
 * handler: browsers only allow new tabs there. Null when the browser blocked it, or is an in-app one
 * where a new tab is not to be trusted: the caller then goes to the payment page in this tab.
 */
export function openPaymentTab(): Window | null {
  if (isInAppBrowser()) return null;
  const tab = window.open('', '_blank');
  if (!tab) return null;
  try {
    // The payment page must not be able to reach back into this one.
    tab.opener = null;
    tab.document.title = 'Opening secure payment…';
    tab.document.body.style.cssText =
      'margin:0;min-height:100vh;display:grid;place-items:center;background:#0b0b10;color:#e4e4e7;font:16px system-ui,sans-serif';
    tab.document.body.textContent = 'Opening secure payment…';
  } catch {
    // Cosmetic only.
  }
  return tab;
}

/** Asks the api for a card payment page (POST /api/checkout). Throws ApiError. */
export function createCheckout(request: CheckoutRequest): Promise<CheckoutResponse> {
  return api.post<CheckoutResponse>('/api/checkout', request);
}

/** 503: no payment provider configured, or it failed (the api says 'Payment System Temporarily Unavailable'). */
export const isPaymentUnavailable = (error: unknown) => isApiError(error, 'unavailable');

/**
 * Failures the visitor can fix on the spot (a field the api refused, too many tries, an expired
 * password token), as opposed to the payment system being down.
 */
export const isVisitorFixable = (error: unknown) =>
  error instanceof ApiError &&
  (['invalid_input', 'unauthorized', 'not_found', 'conflict', 'rate_limited'] as const).some(
    (code) => code === error.code,
  );
