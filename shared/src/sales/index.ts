export * from './fulfil.ts';
export * from './settled.ts';
