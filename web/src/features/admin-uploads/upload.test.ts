import { describe, expect, it } from 'vitest';
import { contentTypeOf, signAction } from './upload.ts';

describe('signAction', () => {
  const upload = { key: 'videos/1-final.mp4', uploadId: 'upload-1' };

  it("names each of Uppy's S3 requests on a planned multipart upload as the api signs it", () => {
    expect(signAction({ method: 'PUT', ...upload, partNumber: 3 })).toEqual({
      action: 'part',
      partNumber: 3,
    });
    expect(signAction({ method: 'GET', ...upload })).toEqual({ action: 'list' });
    expect(signAction({ method: 'POST', ...upload })).toEqual({ action: 'complete' });
    expect(signAction({ method: 'DELETE', ...upload })).toEqual({ action: 'abort' });
  });

  it('refuses what the api planned otherwise: a new upload, a whole file, a deleted object', () => {
    expect(() => signAction({ method: 'POST', key: upload.key })).toThrow(/No POST request/);
    expect(() => signAction({ method: 'PUT', key: upload.key })).toThrow(/No PUT request/);
    expect(() => signAction({ method: 'DELETE', key: upload.key })).toThrow(/No DELETE request/);
  });
});

describe('contentTypeOf', () => {
  it("trusts the browser's type, else the extension, else calls it octet-stream", () => {
    expect(contentTypeOf({ name: 'clip.mp4', type: 'video/webm' })).toBe('video/webm');
    expect(contentTypeOf({ name: 'Final Bow.MOV', type: '' })).toBe('video/quicktime');
    expect(contentTypeOf({ name: 'stage.JPEG', type: '' })).toBe('image/jpeg');
    expect(contentTypeOf({ name: 'notes', type: '' })).toBe('application/octet-stream');
  });
});
