import type { Readable } from 'node:stream';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  ListPartsCommand,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { bucketOrigin, contentDisposition, isSafeKey, type S3Options } from '../../contracts/storage-keys.ts';
import { StorageError, type Storage } from './types.ts';

export type { S3Options } from '../../contracts/storage-keys.ts';

/** A part size for streams of unknown length that `put` sends in parts (S3's minimum is 5 MB). */
const STREAM_PART_BYTES = 8 * 1024 * 1024;

const statusOf = (error: unknown) =>
  (error as { $metadata?: { httpStatusCode?: number } })?.$metadata?.httpStatusCode;
const nameOf = (error: unknown) => (error as { name?: unknown })?.name;

function checkedKey(key: string): string {
  if (!isSafeKey(key)) throw new Error(`Unsafe storage key: ${key}`);
  return key;
}

export function createS3Client(options: S3Options): S3Client {
  return new S3Client({
    region: options.region,
    endpoint: options.endpoint,
    forcePathStyle: options.forcePathStyle,
    credentials: options.credentials,
    // Otherwise streamed bodies go aws-chunked and presigned PUTs carry an empty-body checksum.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
}

export function createS3Storage(options: S3Options, client = createS3Client(options)): Storage {
  const Bucket = options.bucket;

  function uploadError(error: unknown): never {
    const name = nameOf(error);
    if (name === 'NoSuchUpload') throw new StorageError('upload-not-found', 'Upload not found');
    if (name === 'InvalidPart' || name === 'InvalidPartOrder' || name === 'EntityTooSmall')
      throw new StorageError('invalid-parts', 'The uploaded parts do not match; upload the file again');
    throw error;
  }

  /** A stream of unknown length: one PUT if it is small, else a multipart upload of fixed-size parts. */
  async function putStream(Key: string, body: Readable, ContentType: string): Promise<void> {
    let buffered: Buffer[] = [];
    let bufferedBytes = 0;
    let uploadId: string | undefined;
    const parts: Array<{ PartNumber: number; ETag: string | undefined }> = [];
    const sendPart = async () => {
      uploadId ??= (await client.send(new CreateMultipartUploadCommand({ Bucket, Key, ContentType })))
        .UploadId;
      const PartNumber = parts.length + 1;
      const { ETag } = await client.send(
        new UploadPartCommand({ Bucket, Key, UploadId: uploadId, PartNumber, Body: Buffer.concat(buffered) }),
      );
      parts.push({ PartNumber, ETag });
      buffered = [];
      bufferedBytes = 0;
    };
    try {
      for await (const chunk of body) {
        const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string);
        buffered.push(bytes);
        bufferedBytes += bytes.length;
        if (bufferedBytes >= STREAM_PART_BYTES) await sendPart();
      }
      if (!uploadId) {
        await client.send(new PutObjectCommand({ Bucket, Key, ContentType, Body: Buffer.concat(buffered) }));
        return;
      }
      if (bufferedBytes > 0) await sendPart();
      await client.send(
        new CompleteMultipartUploadCommand({
          Bucket,
          Key,
          UploadId: uploadId,
          MultipartUpload: { Parts: parts },
        }),
      );
    } catch (error) {
      if (uploadId)
        await client
          .send(new AbortMultipartUploadCommand({ Bucket, Key, UploadId: uploadId }))
          .catch(() => {});
      throw error;
    }
  }

  return {
    driver: 's3',
    browserOrigin: bucketOrigin(options),
    async put(key, body, contentType) {
      if (Buffer.isBuffer(body)) {
        await client.send(
          new PutObjectCommand({ Bucket, Key: checkedKey(key), Body: body, ContentType: contentType }),
        );
      } else {
        await putStream(checkedKey(key), body, contentType);
      }
    },
    async head(key) {
      if (!isSafeKey(key)) return null;
      try {
        const head = await client.send(new HeadObjectCommand({ Bucket, Key: key }));
        return { size: head.ContentLength ?? 0, contentType: head.ContentType ?? 'application/octet-stream' };
      } catch (error) {
        if (statusOf(error) === 404) return null;
        throw error;
      }
    },
    async get(key, range) {
      if (!isSafeKey(key)) return null;
      try {
        const object = await client.send(
          new GetObjectCommand({
            Bucket,
            Key: key,
            Range: range ? `bytes=${range.start}-${range.end ?? ''}` : undefined,
          }),
        );
        const total = object.ContentRange?.match(/\/(\d+)$/)?.[1];
        return {
          body: object.Body as Readable,
          size: total ? Number(total) : (object.ContentLength ?? 0),
          contentType: object.ContentType ?? 'application/octet-stream',
        };
      } catch (error) {
        if (statusOf(error) === 404 || nameOf(error) === 'NoSuchKey') return null;
        throw error;
      }
    },
    async delete(key) {
      await client.send(new DeleteObjectCommand({ Bucket, Key: checkedKey(key) }));
    },
    async deletePrefix(prefix) {
      if (!prefix.endsWith('/') || !isSafeKey(prefix.slice(0, -1)))
        throw new Error(`Not a folder: ${prefix}`);
      // A thousand keys a listing, and a thousand a delete: S3's own limits.
      for (;;) {
        const { Contents = [], IsTruncated } = await client.send(
          new ListObjectsV2Command({ Bucket, Prefix: prefix, MaxKeys: 1_000 }),
        );
        const keys = Contents.flatMap(({ Key }) => (Key ? [{ Key }] : []));
        if (keys.length > 0)
          await client.send(new DeleteObjectsCommand({ Bucket, Delete: { Objects: keys, Quiet: true } }));
        if (!IsTruncated || keys.length === 0) return;
      }
    },
    async signedDownloadUrl(key, { expiresInSeconds, fileName }) {
      return getSignedUrl(
        client,
        new GetObjectCommand({
          Bucket,
          Key: checkedKey(key),
          ResponseContentDisposition: fileName ? contentDisposition(fileName) : undefined,
        }),
        { expiresIn: expiresInSeconds },
      );
    },
    async signedUploadUrl(key, contentType, { expiresInSeconds }) {
      // Content-Type is a signed header: the browser must PUT with exactly this type.
      return getSignedUrl(
        client,
        new PutObjectCommand({ Bucket, Key: checkedKey(key), ContentType: contentType }),
        {
          expiresIn: expiresInSeconds,
        },
      );
    },

    async createMultipartUpload(key, contentType) {
      const { UploadId } = await client.send(
        new CreateMultipartUploadCommand({ Bucket, Key: checkedKey(key), ContentType: contentType }),
      );
      if (!UploadId) throw new Error('S3 did not return an upload id');
      return { uploadId: UploadId };
    },
    async signedPartUrl(key, uploadId, partNumber, { expiresInSeconds }) {
      return getSignedUrl(
        client,
        new UploadPartCommand({ Bucket, Key: checkedKey(key), UploadId: uploadId, PartNumber: partNumber }),
        { expiresIn: expiresInSeconds },
      );
    },
    async signedMultipartUrl(key, uploadId, action, { expiresInSeconds }) {
      const input = { Bucket, Key: checkedKey(key), UploadId: uploadId };
      const command =
        action === 'list'
          ? new ListPartsCommand(input)
          : action === 'complete'
            ? new CompleteMultipartUploadCommand(input)
            : new AbortMultipartUploadCommand(input);
      return getSignedUrl(client, command, { expiresIn: expiresInSeconds });
    },
    async listParts(key, uploadId) {
      const parts: Array<{ partNumber: number; etag: string; size: number }> = [];
      // A thousand parts a page: S3's own limit.
      for (let marker: string | undefined; ;) {
        const page = await client
          .send(
            new ListPartsCommand({
              Bucket,
              Key: checkedKey(key),
              UploadId: uploadId,
              PartNumberMarker: marker,
            }),
          )
          .catch(uploadError);
        for (const part of page.Parts ?? [])
          if (part.PartNumber && part.ETag)
            parts.push({ partNumber: part.PartNumber, etag: part.ETag, size: part.Size ?? 0 });
        if (!page.IsTruncated || !page.NextPartNumberMarker) return parts;
        marker = page.NextPartNumberMarker;
      }
    },
    async completeMultipartUpload(key, uploadId, parts) {
      if (parts.length === 0) throw new StorageError('invalid-parts', 'No parts were given');
      await client
        .send(
          new CompleteMultipartUploadCommand({
            Bucket,
            Key: checkedKey(key),
            UploadId: uploadId,
            MultipartUpload: {
              Parts: parts.map((part) => ({ PartNumber: part.partNumber, ETag: part.etag })),
            },
          }),
        )
        .catch(uploadError);
    },
    async abortMultipartUpload(key, uploadId) {
      // Aborting twice, or after completing, changes nothing.
      await client
        .send(new AbortMultipartUploadCommand({ Bucket, Key: checkedKey(key), UploadId: uploadId }))
        .catch((error: unknown) => {
          if (nameOf(error) !== 'NoSuchUpload' && statusOf(error) !== 404) throw error;
        });
    },
  };
}
