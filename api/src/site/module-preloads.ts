import { readFileSync } from 'node:fs';
import path from 'node:path';

/** One module of vite's build manifest (`build.manifest`, web/dist/.vite/manifest.json). */
interface ManifestChunk {
  file: string;
  src?: string;
  name?: string;
  isEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
}
type Manifest = Record<string, ManifestChunk>;

/** The app's entry (index.html's script, web/src/main.tsx) and the download page, as the manifest names them. */
const ENTRY = 'index.html';
const DOWNLOAD_PAGE = 'src/pages/shop/download.tsx';
/**
 * A dancer's or studio's page (web/src/app.tsx): its shell paints without names, the app brings them.
 * The build puts the page and what it imports beside the entry into one chunk named so
 * (web/screen-chunk.ts), whose manifest key is then the chunk's, not the page's.
 */
const PERFORMER_PAGE = 'src/pages/shop/performer.tsx';
const PERFORMER_CHUNK = 'performer';
/** hls.js's light build, imported by the download page's player only when the video has a stream. */
const HLS = /\/hls\.js\/dist\/hls\.light\.m?js$/;

export interface ModulePreloads {
  /** The entry and what it imports: what web/start-after-paint.ts's starter asks for at once on a page that arrives empty. */
  entry: string[];
  /** The download page's own code (with the entry's). */
  download: string[];
  /** hls.js, for a download page whose video has an adaptive stream. */
  hls: string[];
  /** A dancer's or studio's page's code (with the entry's), asked for with its painted shell. */
  performer: string[];
}

/**
 * The scripts a page that arrives empty will ask for, found in the build's manifest, so the api can name
 * them in the page's head (`<link rel="modulepreload">`) and the browser fetches them together with the
 * stylesheet instead of one after another: the starter runs only once the stylesheet is in, the entry
 * asks for the page's code only once it runs, and the player asks for hls.js only once the page runs
 * (decision 031: a phone on a venue's 4G sees the first frame sooner). Empty lists without a manifest.
 */
export function readModulePreloads(dist: string): ModulePreloads {
  let manifest: Manifest;
  try {
    manifest = JSON.parse(readFileSync(path.join(dist, '.vite', 'manifest.json'), 'utf8')) as Manifest;
  } catch {
    return { entry: [], download: [], hls: [], performer: [] };
  }
  /** A module's file and, first, the files it imports statically (each once). */
  const closure = (key: string, seen = new Set<string>()): string[] => {
    const chunk = manifest[key];
    if (!chunk || seen.has(key)) return [];
    seen.add(key);
    return [...(chunk.imports ?? []).flatMap((imported) => closure(imported, seen)), chunk.file];
  };
  const files = (keys: string[]) =>
    [...new Set(keys.flatMap((key) => closure(key)))].map((file) => `/${file}`);
  const entry = files([ENTRY]);
  const downloadKeys = [ENTRY, DOWNLOAD_PAGE];
  const reachable = new Set<string>();
  for (const key of downloadKeys) closure(key, reachable);
  const performerKey = manifest[PERFORMER_PAGE]
    ? PERFORMER_PAGE
    : Object.keys(manifest).find((key) => !manifest[key]!.src && manifest[key]!.name === PERFORMER_CHUNK);
  const hlsKeys = [...reachable]
    .flatMap((key) => manifest[key]?.dynamicImports ?? [])
    .filter((key) => HLS.test(`/${key}`));
  const download = manifest[DOWNLOAD_PAGE] ? files(downloadKeys) : [];
  return {
    entry,
    download,
    hls: files(hlsKeys).filter((file) => !download.includes(file)),
    // The entry first: the largest, and on HTTP/1.1 the six connections serve the links in order.
    performer: performerKey
      ? [...new Set([`/${manifest[ENTRY]!.file}`, ...files([ENTRY, performerKey])])]
      : [],
  };
}

/** The head's links for these scripts; `low`: fetched after the others (they share a phone's bandwidth). */
export const modulePreloadLinks = (files: string[], low: string[] = []) =>
  [
    ...files.map((file) => `<link rel="modulepreload" crossorigin href="${file}" />`),
    ...low.map((file) => `<link rel="modulepreload" crossorigin fetchpriority="low" href="${file}" />`),
  ].join('\n    ');
