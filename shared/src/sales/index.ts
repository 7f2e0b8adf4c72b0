export * from './fulfil.ts';
export * from './settled.ts';
export * from './bundles.ts';
