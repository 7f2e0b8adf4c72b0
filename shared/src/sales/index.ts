export * from './fulfil.ts';
