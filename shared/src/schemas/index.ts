export * from './content.ts';
export * from './admin.ts';
export * from './shop.ts';
export * from './sync.ts';
export * from './media.ts';
export * from './portfolio.ts';
export * from './library.ts';
export * from './buyer-library.ts';
