import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { modulePreloadLinks, readModulePreloads } from './module-preloads.ts';

/** A build folder whose manifest is `manifest` (vite's shape, web/dist/.vite/manifest.json). */
async function dist(manifest?: object) {
  const folder = await mkdtemp(path.join(os.tmpdir(), 'stagelight-preloads-'));
  if (manifest) {
    await mkdir(path.join(folder, '.vite'));
    await writeFile(path.join(folder, '.vite', 'manifest.json'), JSON.stringify(manifest));
  }
  return folder;
}

const manifest = {
  'index.html': {
    file: 'assets/index-a1.js',
    isEntry: true,
    imports: ['_clsx-c1.js', '_api-p1.js'],
    dynamicImports: ['src/pages/shop/download.tsx', 'src/pages/shop/performer.tsx', 'src/pages/home.tsx'],
  },
  '_clsx-c1.js': { file: 'assets/clsx-c1.js' },
  '_api-p1.js': { file: 'assets/api-p1.js', imports: ['_clsx-c1.js'] },
  '_badge-b1.js': { file: 'assets/badge-b1.js', imports: ['index.html'] },
  'src/pages/shop/download.tsx': {
    file: 'assets/download-d1.js',
    isDynamicEntry: true,
    imports: ['_clsx-c1.js', 'index.html', '_badge-b1.js'],
    dynamicImports: ['../node_modules/hls.js/dist/hls.light.mjs'],
  },
  'src/pages/shop/performer.tsx': {
    file: 'assets/performer-q1.js',
    isDynamicEntry: true,
    imports: ['index.html', '_badge-b1.js'],
  },
  'src/pages/home.tsx': { file: 'assets/home-h1.js', isDynamicEntry: true },
  '../node_modules/hls.js/dist/hls.light.mjs': { file: 'assets/hls.light-l1.js', isDynamicEntry: true },
};

describe("a page's scripts from the build's manifest", () => {
  it('lists the entry with its imports, the download and dancer pages with their own, and hls.js apart', async () => {
    expect(readModulePreloads(await dist(manifest))).toEqual({
      entry: ['/assets/clsx-c1.js', '/assets/api-p1.js', '/assets/index-a1.js'],
      download: [
        '/assets/clsx-c1.js',
        '/assets/api-p1.js',
        '/assets/index-a1.js',
        '/assets/badge-b1.js',
        '/assets/download-d1.js',
      ],
      hls: ['/assets/hls.light-l1.js'],
      // The entry's own file first: the largest of them.
      performer: [
        '/assets/index-a1.js',
        '/assets/clsx-c1.js',
        '/assets/api-p1.js',
        '/assets/badge-b1.js',
        '/assets/performer-q1.js',
      ],
    });
  });

  it("finds the dancer page's code when the build put it into a chunk of its own name", async () => {
    const { 'src/pages/shop/performer.tsx': page, ...rest } = manifest;
    const grouped = {
      ...rest,
      '_performer-g1.js': { ...page, file: 'assets/performer-g1.js', name: 'performer' },
    };
    expect(readModulePreloads(await dist(grouped)).performer).toEqual([
      '/assets/index-a1.js',
      '/assets/clsx-c1.js',
      '/assets/api-p1.js',
      '/assets/badge-b1.js',
      '/assets/performer-g1.js',
    ]);
  });

  it('names nothing without a manifest (an older build): the pages load as before', async () => {
    expect(readModulePreloads(await dist())).toEqual({ entry: [], download: [], hls: [], performer: [] });
  });

  it('asks for the later ones at low priority', () => {
    expect(modulePreloadLinks(['/assets/a.js'], ['/assets/b.js']).split('\n    ')).toEqual([
      '<link rel="modulepreload" crossorigin href="/assets/a.js" />',
      '<link rel="modulepreload" crossorigin fetchpriority="low" href="/assets/b.js" />',
    ]);
  });
});
