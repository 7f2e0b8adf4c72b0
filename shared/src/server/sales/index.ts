export * from './fulfil.ts';
export * from './settled.ts';
export * from './bundles.ts';
export * from './purchase-record.ts';
export * from './reminders.ts';
export * from './availability.ts';
export * from './purchases.ts';
