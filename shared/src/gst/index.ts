export * from './ird-number.ts';
export * from './money.ts';
export * from './document.ts';
export * from './settings.ts';
export * from './issue.ts';
export * from './pdf.ts';
