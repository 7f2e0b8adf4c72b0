import { describe, expect, it } from 'vitest';
import type { UploadTarget } from '@app/shared/schemas';
import { contentTypeOf, planUpload } from './upload.ts';

const MB = 1024 * 1024;

function multipart(partSize: number, partNumbers: number[]): UploadTarget {
  return {
    kind: 'multipart',
    uploadId: 'upload-1',
    awsKey: 'videos/1-final.mp4',
    contentType: 'video/mp4',
    partSize,
    parts: partNumbers.map((partNumber) => ({ partNumber, url: `https://store.example/part-${partNumber}` })),
  };
}

describe('planUpload', () => {
  it('sends a small file whole to its one link', () => {
    const target: UploadTarget = {
      kind: 'single',
      uploadUrl: 'https://store.example/one',
      awsKey: 'videos/1-solo.mp4',
      contentType: 'video/mp4',
    };
    expect(planUpload(target, 5 * MB)).toEqual([{ url: 'https://store.example/one', start: 0, end: 5 * MB }]);
  });

  it('slices a large file into its parts, the last one short, covering every byte once', () => {
    const size = 250 * MB + 17;
    const plan = planUpload(multipart(100 * MB, [1, 2, 3]), size);
    expect(plan).toEqual([
      { url: 'https://store.example/part-1', partNumber: 1, start: 0, end: 100 * MB },
      { url: 'https://store.example/part-2', partNumber: 2, start: 100 * MB, end: 200 * MB },
      { url: 'https://store.example/part-3', partNumber: 3, start: 200 * MB, end: size },
    ]);
    expect(plan.reduce((total, part) => total + part.end - part.start, 0)).toBe(size);
  });

  it('places each part by its number, whatever order the links come in', () => {
    const plan = planUpload(multipart(10, [2, 1]), 15);
    expect(plan.map(({ partNumber, start, end }) => [partNumber, start, end])).toEqual([
      [2, 10, 15],
      [1, 0, 10],
    ]);
  });

  it('gives a part beyond the end of the file nothing to send', () => {
    expect(planUpload(multipart(10, [1, 2]), 10)[1]).toMatchObject({ start: 10, end: 10 });
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
