import { MAX_IMAGE_BYTES } from '@app/shared/images';
import { contentTypeOf } from '../admin-uploads/upload.ts';

/** What the file pickers offer. */
export const ACCEPT = 'image/jpeg,image/png,image/webp,.jpg,.jpeg,.png,.webp';
/** Where a portfolio picture's upload is planned. */
export const IMAGE_LINK = '/api/admin/images/upload-url';

/** Files the browser should not even send: too big or not a picture we take (the worker checks again). */
export function refusal(file: File): string | undefined {
  if (!['image/jpeg', 'image/png', 'image/webp'].includes(contentTypeOf(file)))
    return 'Only JPEG, PNG and WebP pictures can be uploaded (export HEIC photos as JPEG first)';
  if (file.size > MAX_IMAGE_BYTES) return 'Pictures up to 50 MB can be uploaded';
  if (file.size === 0) return 'The file is empty';
  return undefined;
}
