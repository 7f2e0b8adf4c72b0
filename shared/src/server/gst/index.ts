export * from '../../contracts/gst/ird-number.ts';
export * from '../../contracts/gst/money.ts';
export * from './document.ts';
export * from './settings.ts';
export * from './issue.ts';
// The PDF (pdfkit, fontkit and the fonts) is its own entry, '@app/shared/gst/pdf': only what renders loads it.
