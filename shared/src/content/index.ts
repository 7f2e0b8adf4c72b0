export * from './site.ts';
export * from './service-pages.ts';
