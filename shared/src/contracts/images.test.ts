import { describe, expect, it } from 'vitest';
import { IMAGE_WIDTHS, imageSizes, imageSrcSet, imageUrl, responsiveImage } from './images.ts';

describe('responsive image helpers', () => {
  it('builds width variants of our own images only', () => {
    expect(imageUrl('/api/images/portfolio/solo-01.jpg', 640)).toBe(
      '/api/images/portfolio/solo-01.jpg?w=640',
    );
    expect(imageUrl('https://cdn.example/x.jpg', 640)).toBe('https://cdn.example/x.jpg');
    expect(imageSrcSet('/api/images/hero/stage-hero.jpg', 640)).toBe(
      '/api/images/hero/stage-hero.jpg?w=320 320w, /api/images/hero/stage-hero.jpg?w=480 480w, /api/images/hero/stage-hero.jpg?w=640 640w',
    );
    expect(imageSrcSet('/api/images/hero/stage-hero.jpg')!.split(', ')).toHaveLength(IMAGE_WIDTHS.length);
    expect(imageSrcSet('https://cdn.example/x.jpg')).toBeUndefined();
  });

  it('writes sizes widest breakpoint first, whatever order they are given in', () => {
    expect(imageSizes({ base: '50vw', lg: '25vw', sm: '33vw' })).toBe(
      '(min-width: 1024px) 25vw, (min-width: 640px) 33vw, 50vw',
    );
    expect(imageSizes({ base: '100vw' })).toBe('100vw');
  });

  it('gives src, srcSet and sizes together, with a phone-sized fallback', () => {
    expect(
      responsiveImage('/api/images/attached_assets/event-01.jpg', { sizes: '100vw', maxWidth: 480 }),
    ).toEqual({
      src: '/api/images/attached_assets/event-01.jpg?w=640',
      srcSet:
        '/api/images/attached_assets/event-01.jpg?w=320 320w, /api/images/attached_assets/event-01.jpg?w=480 480w',
      sizes: '100vw',
    });
    expect(responsiveImage('https://cdn.example/x.jpg', { sizes: '100vw' })).toEqual({
      src: 'https://cdn.example/x.jpg',
    });
  });
});
