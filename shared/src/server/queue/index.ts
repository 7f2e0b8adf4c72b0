export * from './jobs.ts';
export * from './options.ts';
export * from './producer.ts';
export { createRedis } from '../redis.ts';
