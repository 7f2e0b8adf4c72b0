import { formatPrice } from '@app/shared/format';

// The buyer's receipt (docs/decisions/023): every video with its own link, and the buyer's library.
// A plain-text part for every mail app, and a one-column HTML part with inline styles and large
// links, which phone mail apps show at their width (no external CSS, images or scripts).

export interface ReceiptItem {
  title: string;
  amountCents: number;
  /** Null for a bundle whose showcase held no video at payment: nothing to link. */
  link: string | null;
  /** The showcase whose bundle this came with. */
  bundleName: string | null;
}

export interface Receipt {
  buyerName: string;
  amountCents: number;
  items: ReceiptItem[];
  libraryUrl: string;
  contactEmail: string;
  /** The purchase's invoice or receipt (attached as a PDF too). */
  document?: { title: string; text: string };
}

const escape = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

export function receiptSubject(receipt: Receipt): string {
  const [first] = receipt.items;
  return receipt.items.length === 1 && first
    ? `Your video: ${first.title}`
    : `Your ${receipt.items.length} videos from Stagelight Studio`;
}

export function receiptText({
  buyerName,
  amountCents,
  items,
  libraryUrl,
  contactEmail,
  document,
}: Receipt): string {
  const one = items.length === 1;
  return [
    `Kia ora ${buyerName},`,
    '',
    one
      ? `Thank you for buying "${items[0]!.title}" (${formatPrice(amountCents)}).`
      : `Thank you for buying ${items.length} videos (${formatPrice(amountCents)} in total).`,
    one
      ? 'Watch or download it here (keep this e-mail: the link works whenever you need it):'
      : 'Watch or download each one here (keep this e-mail: the links work whenever you need them):',
    '',
    ...items.flatMap((item) => [
      `${item.title}${item.bundleName ? ` (${item.bundleName} bundle)` : ''}`,
      item.link ?? 'No video was in this bundle when you paid: reply and we will sort it out.',
      '',
    ]),
    `All your videos, any time: ${libraryUrl}`,
    '',
    `Questions? Reply to this e-mail or write to ${contactEmail}.`,
    ...(document ? ['', `Your ${document.title} (also attached as a PDF):`, '', document.text] : []),
  ].join('\n');
}

export function receiptHtml({
  buyerName,
  amountCents,
  items,
  libraryUrl,
  contactEmail,
  document,
}: Receipt): string {
  const rows = items
    .map(
      (item) => `<tr><td style="padding:14px 0;border-top:1px solid #e4e4e7">
<div style="font-size:16px;font-weight:600;color:#18181b">${escape(item.title)}</div>
${item.bundleName ? `<div style="font-size:13px;color:#71717a">${escape(item.bundleName)} bundle</div>` : ''}
${
  item.link
    ? `<a href="${escape(item.link)}" style="display:inline-block;margin-top:8px;padding:10px 16px;border-radius:8px;background:#18181b;color:#ffffff;font-size:15px;text-decoration:none">Watch &amp; Download</a>`
    : '<div style="margin-top:8px;font-size:14px;color:#71717a">No video was in this bundle when you paid: reply and we will sort it out.</div>'
}
</td></tr>`,
    )
    .join('\n');
  const thanks =
    items.length === 1
      ? `Thank you for buying “${escape(items[0]!.title)}” (${formatPrice(amountCents)}).`
      : `Thank you for buying ${items.length} videos (${formatPrice(amountCents)} in total).`;
  return `<!doctype html>
<html lang="en-NZ"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body style="margin:0;padding:0;background:#f4f4f5">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:#f4f4f5"><tr><td align="center" style="padding:16px">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:560px;background:#ffffff;border-radius:12px;font-family:-apple-system,Segoe UI,Roboto,Helvetica,Arial,sans-serif;color:#27272a">
<tr><td style="padding:24px 20px 8px">
<p style="margin:0 0 12px;font-size:16px">Kia ora ${escape(buyerName)},</p>
<p style="margin:0 0 12px;font-size:16px;line-height:1.5">${thanks} Keep this e-mail: the links work whenever you need them.</p>
</td></tr>
<tr><td style="padding:0 20px"><table role="presentation" width="100%" cellpadding="0" cellspacing="0">
${rows}
</table></td></tr>
<tr><td style="padding:16px 20px 24px;font-size:15px;line-height:1.5">
<p style="margin:0 0 12px">All your videos, any time: <a href="${escape(libraryUrl)}" style="color:#7c3aed">${escape(libraryUrl)}</a></p>
${document ? `<p style="margin:0 0 12px">Your ${escape(document.title)} is attached as a PDF.</p>` : ''}
<p style="margin:0;color:#71717a;font-size:14px">Questions? Reply to this e-mail or write to <a href="mailto:${escape(contactEmail)}" style="color:#7c3aed">${escape(contactEmail)}</a>.</p>
</td></tr>
</table>
</td></tr></table>
</body></html>`;
}
