import { describe, expect, it } from 'vitest';
import { withFreshTokens } from './stream-tokens.ts';

describe('withFreshTokens', () => {
  const tokens = { grant: 'new-grant', segment: 'new-segment' };
  it('puts the newest grant on playlists and the newest token on segments', () => {
    expect(withFreshTokens('https://site.nz/api/hls/v1/360p/index.m3u8?grant=old', tokens)).toBe(
      'https://site.nz/api/hls/v1/360p/index.m3u8?grant=new-grant',
    );
    expect(withFreshTokens('https://site.nz/api/hls/v1/360p/seg00001.m4s?t=old', tokens)).toBe(
      'https://site.nz/api/hls/v1/360p/seg00001.m4s?t=new-segment',
    );
    expect(withFreshTokens('/api/hls/v1/360p/init_0.mp4?t=old', tokens)).toBe(
      '/api/hls/v1/360p/init_0.mp4?t=new-segment',
    );
  });
  it('keeps what the playlist gave until a refresh has come, and leaves other links alone', () => {
    expect(withFreshTokens('https://site.nz/a.m4s?t=old', { grant: '', segment: '' })).toBe(
      'https://site.nz/a.m4s?t=old',
    );
    expect(withFreshTokens('https://site.nz/api/files/x.mp4?expires=1', tokens)).toBe(
      'https://site.nz/api/files/x.mp4?expires=1',
    );
  });
});
