// eslint-disable-next-line @typescript-eslint/triple-slash-reference -- s3rver has no types; this file declares them
/// <reference path="./s3rver.d.ts" />
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';

export interface TestS3 {
  /** Environment for STORAGE_DRIVER=s3 against this server (merge into createTestEnv's overrides). */
  env: Record<string, string>;
  endpoint: string;
  bucket: string;
  close(): Promise<void>;
}

/**
 * A local S3-compatible server (s3rver) on a free port with one empty bucket. It serves presigned
 * GET/PUT, multipart and expiry, but does not check signatures: tamper tests target our own links.
 */
export async function startTestS3(bucket = 'stagelight-test'): Promise<TestS3> {
  const directory = await mkdtemp(path.join(os.tmpdir(), 'stagelight-s3-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket }],
  });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    bucket,
    env: {
      STORAGE_DRIVER: 's3',
      S3_BUCKET: bucket,
      S3_REGION: 'us-east-1',
      S3_ENDPOINT: endpoint,
      S3_FORCE_PATH_STYLE: 'true',
      AWS_ACCESS_KEY_ID: 'S3RVER',
      AWS_SECRET_ACCESS_KEY: 'S3RVER',
    },
    async close() {
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
