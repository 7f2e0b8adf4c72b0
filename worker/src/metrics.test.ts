import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { UnrecoverableError } from 'bullmq';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createLogger } from '@app/shared/logger';
import { drain } from '../../test/support/worker.ts';
import { startMetricsServer } from './metrics.ts';
import { useTestWorld } from '../../test/support/world.ts';
import { expectErrorLogs } from '../../test/support/guards.ts';

const TOKEN = 'worker-metrics-token-for-tests';
const { env, worker } = useTestWorld({
  env: { METRICS_TOKEN: TOKEN },
  worker: {
    'contact-notification': async () => 'done',
    'purchase-receipt': async () => {
      throw new UnrecoverableError('no such purchase');
    },
  },
});
let server: Server;
let url: string;

beforeAll(async () => {
  const logger = createLogger({ name: 'metrics-test', level: 'silent' });
  server = (await startMetricsServer({ ...worker.context, logger }, worker.workers, 0))!;
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/metrics`;
});
afterAll(() => {
  server?.close();
});

it('serves job durations, failures and queue depths to the bearer of the token only', async () => {
    expectErrorLogs(/no such purchase/);
  await worker.producer.enqueue('contact-notification', { contactId: 1 });
  await worker.producer.enqueue('purchase-receipt', { purchaseId: 'missing' });
  await drain(worker.producer, 'contact-notification');
  await drain(worker.producer, 'purchase-receipt');

  expect((await fetch(url)).status).toBe(401);
  expect((await fetch(url, { headers: { Authorization: 'Bearer wrong' } })).status).toBe(401);
  expect((await fetch(url.replace('/metrics', '/other'))).status).toBe(404);

  const response = await fetch(url, { headers: { Authorization: `Bearer ${TOKEN}` } });
  expect(response.status).toBe(200);
  const text = await response.text();
  expect(text).toMatch(/job_duration_seconds_count\{job="contact-notification",outcome="completed"\} 1/);
  expect(text).toMatch(/jobs_failed_total\{job="purchase-receipt"\} 1/);
  expect(text).toMatch(/queue_jobs\{queue="purchase-receipt",state="failed"\} 1/);
  expect(text).toContain('process_resident_memory_bytes');
});

it('listens on this machine only, unless told otherwise', () => {
  expect((server.address() as AddressInfo).address).toBe('127.0.0.1');
});

it('reports readiness as ok / not ok without the token, and the ffmpeg in use only with it', async () => {
  const response = await fetch(url.replace('/metrics', '/readyz'));
  expect(response.status).toBe(200);
  expect(await response.json()).toEqual({
    status: 'ready',
    postgres: 'ok',
    redis: 'ok',
    videoProcessing: 'ok',
  });
  const detailed = await fetch(url.replace('/metrics', '/readyz'), {
    headers: { Authorization: `Bearer ${TOKEN}` },
  });
  const body = (await detailed.json()) as { status: string; ffmpeg: { path: string; version: string } };
  expect(body.status).toBe('ready');
  expect(body.ffmpeg.version).toMatch(/^ffmpeg version /);
  expect(body.ffmpeg.path).toMatch(/ffmpeg$/);
});

it('listens nowhere without a token', async () => {
  const logger = createLogger({ name: 'metrics-test', level: 'silent' });
  const config = { ...env.config, METRICS_TOKEN: undefined };
  expect(await startMetricsServer({ ...worker.context, config, logger }, [], 0)).toBeUndefined();
});
