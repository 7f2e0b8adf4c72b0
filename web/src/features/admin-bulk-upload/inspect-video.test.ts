import { describe, expect, it } from 'vitest';
import { inspectVideo } from './inspect-video.ts';

const box = (type: string, body: Uint8Array) => {
  const out = new Uint8Array(8 + body.length);
  new DataView(out.buffer).setUint32(0, out.length);
  out.set(
    [...type].map((c) => c.charCodeAt(0)),
    4,
  );
  out.set(body, 8);
  return out;
};
/** An mvhd (version 0) whose creation time is `at`, in seconds since 1904. */
const mvhd = (at: number) => {
  const body = new Uint8Array(100);
  new DataView(body.buffer).setUint32(4, at);
  return box('mvhd', body);
};
const EPOCH_1904 = 2_082_844_800;

describe('inspecting a file before it is sent', () => {
  it('reads the capture time from the movie header, wherever the moov box is', async () => {
    const shot = Date.UTC(2026, 10, 21, 19, 30) / 1000;
    const ftyp = box('ftyp', new TextEncoder().encode('isom\0\0\0\0isommp41'));
    const moov = box('moov', mvhd(shot + EPOCH_1904));
    const mdat = box('mdat', new Uint8Array(5000));
    expect(await inspectVideo(new Blob([ftyp, mdat, moov]))).toEqual({
      isVideo: true,
      capturedAt: shot * 1000,
    });
    expect(await inspectVideo(new Blob([ftyp, moov, mdat]))).toEqual({
      isVideo: true,
      capturedAt: shot * 1000,
    });
    expect(await inspectVideo(new Blob([ftyp, box('moov', mvhd(0)), mdat]))).toEqual({
      isVideo: true,
      capturedAt: null,
    });
  });

  it('tells a picture renamed .mp4, an empty file and a WebM apart', async () => {
    expect(
      await inspectVideo(new Blob([new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 16, 74, 70, 73, 70, 0])])),
    ).toEqual({
      isVideo: false,
      capturedAt: null,
    });
    expect((await inspectVideo(new Blob([]))).isVideo).toBe(false);
    expect(
      (await inspectVideo(new Blob([new Uint8Array([0x1a, 0x45, 0xdf, 0xa3, 1, 2, 3, 4, 5])]))).isVideo,
    ).toBe(true);
  });
});
