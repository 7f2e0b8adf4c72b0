export * from './site.ts';
export * from './service-pages.ts';
export * from './pages.ts';
