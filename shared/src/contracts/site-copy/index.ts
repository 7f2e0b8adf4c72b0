export * from './site.ts';
// service-pages.ts (the pages' bodies) has its own entry, @app/shared/site-copy/service-pages, so the
// web app's first load need not carry them.
export * from './service-page-heads.ts';
export * from './pages.ts';
export * from './privacy.ts';
