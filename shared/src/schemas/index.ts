export * from './content.ts';
export * from './admin.ts';
