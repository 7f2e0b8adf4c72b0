import { business } from '@app/shared/site-copy';
import { escapeHtml } from '../clients/mailer.ts';

/**
 * The frame of the short mails (a library sign-in link, an online alert): the business's name at the
 * top of a white card, with inline styles only, as mail apps drop <style>. `body` is HTML, escaped by
 * the caller.
 */
export function cardMailHtml(body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(business.name)}</title></head>
<body style="margin:0;padding:0;background:#f4f4f5;">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:#f4f4f5;"><tr><td align="center" style="padding:24px 12px;">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:480px;background:#ffffff;border-radius:12px;">
<tr><td style="padding:28px 24px;font-family:-apple-system,BlinkMacSystemFont,'Segoe UI',Roboto,Helvetica,Arial,sans-serif;font-size:16px;line-height:1.5;color:#18181b;">
<p style="margin:0 0 8px;font-size:20px;font-weight:600;">${escapeHtml(business.name)}</p>
${body}
</td></tr></table></td></tr></table>
</body></html>`;
}
