import type { Config } from '../config.ts';
import { bucketOrigin, type S3Options } from '../../contracts/storage-keys.ts';
import { createLocalStorage } from './local.ts';
import type { Storage } from './types.ts';

export {
  contentDisposition,
  contentTypeFor,
  encodeKey,
  imageKeys,
  isSafeKey,
  masterKey,
  RENDITION_NAME,
  STREAM_FILE,
  STREAM_PREFIX,
  streamPrefix,
  VARIANT_FORMATS,
  variantKey,
  type S3Options,
  type VariantFormat,
} from '../../contracts/storage-keys.ts';
export {
  byteLimit,
  createLocalStorage,
  isLocalStorage,
  LOCAL_FILES_PATH,
  LOCAL_UPLOADS_PATH,
  MIN_PART_BYTES,
  verifyLocalLink,
  verifyLocalMultipart,
  verifyLocalUpload,
  type LocalStorage,
} from './local.ts';
export {
  MAX_PARTS,
  StorageError,
  type MultipartAction,
  type Storage,
  type StoredObject,
  type UploadedPart,
} from './types.ts';

/** The storage STORAGE_DRIVER names: files under STORAGE_DIR, or an S3 (compatible) bucket. */
export function createStorage(config: Config): Storage {
  if (config.STORAGE_DRIVER === 'local') {
    return createLocalStorage(config.STORAGE_DIR, {
      publicUrl: config.PUBLIC_URL,
      secret: config.SESSION_SECRET,
    });
  }
  if (!config.S3_BUCKET) throw new Error('S3_BUCKET is required when STORAGE_DRIVER=s3');
  return lazyS3Storage({
    bucket: config.S3_BUCKET,
    region: config.S3_REGION,
    endpoint: config.S3_ENDPOINT,
    forcePathStyle: config.S3_FORCE_PATH_STYLE,
    credentials:
      config.AWS_ACCESS_KEY_ID && config.AWS_SECRET_ACCESS_KEY
        ? { accessKeyId: config.AWS_ACCESS_KEY_ID, secretAccessKey: config.AWS_SECRET_ACCESS_KEY }
        : undefined,
  });
}

type Method = Exclude<keyof Storage, 'driver' | 'browserOrigin'>;

/**
 * The S3 driver, with the AWS SDK loaded in the background (it takes ~0.3 s to import, which
 * processes on local storage, and every test file, should not pay). Calls wait for it.
 */
function lazyS3Storage(options: S3Options): Storage {
  const loading = import('./s3.ts').then(({ createS3Storage }) => createS3Storage(options));
  loading.catch(() => {}); // reported by the first call
  const call =
    <M extends Method>(method: M) =>
    async (...args: Parameters<Storage[M]>): Promise<Awaited<ReturnType<Storage[M]>>> => {
      const storage = await loading;
      return (storage[method] as (...a: Parameters<Storage[M]>) => Promise<Awaited<ReturnType<Storage[M]>>>)(
        ...args,
      );
    };
  return {
    driver: 's3',
    browserOrigin: bucketOrigin(options),
    put: call('put'),
    get: call('get'),
    head: call('head'),
    delete: call('delete'),
    deletePrefix: call('deletePrefix'),
    signedDownloadUrl: call('signedDownloadUrl'),
    signedUploadUrl: call('signedUploadUrl'),
    createMultipartUpload: call('createMultipartUpload'),
    signedPartUrl: call('signedPartUrl'),
    listParts: call('listParts'),
    signedMultipartUrl: call('signedMultipartUrl'),
    completeMultipartUpload: call('completeMultipartUpload'),
    abortMultipartUpload: call('abortMultipartUpload'),
  };
}
