import { mkdir, stat } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';

// Demo pictures drawn from SVG: spotlit stages with dancer silhouettes. They stand in for the
// owner's photographs on a fresh install and are regenerated only when missing.

/** Small deterministic generator, so every install draws the same pictures. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1_664_525 + 1_013_904_223) >>> 0;
    return state / 2 ** 32;
  };
}

type Pose = 'arabesque' | 'leap' | 'reach' | 'spin';

function dancer(x: number, floor: number, scale: number, pose: Pose, fill: string): string {
  const s = scale;
  const limb = (points: Array<[number, number]>) =>
    `<polyline points="${points.map(([px, py]) => `${x + px * s},${floor - py * s}`).join(' ')}" fill="none" stroke="${fill}" stroke-width="${7 * s}" stroke-linecap="round" stroke-linejoin="round"/>`;
  const head = (hx: number, hy: number) =>
    `<circle cx="${x + hx * s}" cy="${floor - hy * s}" r="${9 * s}" fill="${fill}"/>`;
  const torso = (points: Array<[number, number]>) =>
    `<polyline points="${points.map(([px, py]) => `${x + px * s},${floor - py * s}`).join(' ')}" fill="none" stroke="${fill}" stroke-width="${15 * s}" stroke-linecap="round"/>`;
  switch (pose) {
    case 'arabesque':
      return [
        torso([
          [0, 70],
          [6, 108],
        ]),
        head(9, 126),
        limb([
          [0, 70],
          [0, 0],
        ]),
        limb([
          [0, 70],
          [-60, 92],
        ]),
        limb([
          [4, 102],
          [40, 140],
        ]),
        limb([
          [4, 102],
          [-34, 118],
        ]),
      ].join('');
    case 'leap':
      return [
        torso([
          [0, 110],
          [2, 150],
        ]),
        head(4, 168),
        limb([
          [0, 110],
          [48, 96],
          [70, 80],
        ]),
        limb([
          [0, 110],
          [-52, 96],
          [-74, 84],
        ]),
        limb([
          [2, 144],
          [36, 180],
        ]),
        limb([
          [2, 144],
          [-38, 178],
        ]),
      ].join('');
    case 'reach':
      return [
        torso([
          [0, 72],
          [0, 112],
        ]),
        head(0, 130),
        limb([
          [0, 72],
          [-12, 36],
          [-4, 0],
        ]),
        limb([
          [0, 72],
          [14, 36],
          [22, 0],
        ]),
        limb([
          [0, 106],
          [-8, 150],
          [-4, 180],
        ]),
        limb([
          [0, 106],
          [10, 150],
          [6, 182],
        ]),
      ].join('');
    case 'spin':
      return [
        torso([
          [0, 72],
          [0, 112],
        ]),
        head(0, 130),
        limb([
          [0, 72],
          [0, 0],
        ]),
        limb([
          [0, 72],
          [22, 50],
          [2, 40],
        ]),
        limb([
          [0, 106],
          [-30, 120],
          [-6, 148],
        ]),
        limb([
          [0, 106],
          [30, 120],
          [6, 148],
        ]),
        `<ellipse cx="${x}" cy="${floor - 70 * s}" rx="${34 * s}" ry="${10 * s}" fill="${fill}" opacity="0.85"/>`,
      ].join('');
  }
}

export interface SceneOptions {
  width: number;
  height: number;
  seed: number;
  dancers: number;
  /** Base hue of the lighting, 0-360. */
  hue: number;
  studio?: boolean;
  caption?: string;
}

export function sceneSvg({ width, height, seed, dancers, hue, studio, caption }: SceneOptions): string {
  const next = random(seed);
  const poses: Pose[] = ['arabesque', 'leap', 'reach', 'spin'];
  const floor = height * (studio ? 0.86 : 0.8);
  const light = `hsl(${hue} 90% 62%)`;
  const deep = `hsl(${(hue + 220) % 360} 60% 8%)`;
  const mid = `hsl(${(hue + 200) % 360} 55% 18%)`;
  const beams = studio
    ? ''
    : Array.from({ length: 3 }, (_, index) => {
        const top = width * (0.2 + 0.3 * index + (next() - 0.5) * 0.1);
        const spread = width * (0.12 + next() * 0.08);
        const centre = width * (0.15 + next() * 0.7);
        return `<polygon points="${top - 8},0 ${top + 8},0 ${centre + spread},${floor} ${centre - spread},${floor}" fill="url(#beam)" opacity="${0.35 + next() * 0.3}"/>`;
      }).join('');
  const scale = (height / 300) * (dancers > 3 ? 0.55 : dancers > 1 ? 0.75 : 1);
  const figures = Array.from({ length: dancers }, (_, index) => {
    const x = width * ((index + 1) / (dancers + 1)) + (next() - 0.5) * width * 0.05;
    const pose = dancers > 1 ? poses[(seed + (index % 2)) % poses.length]! : poses[seed % poses.length]!;
    return dancer(x, floor, scale, pose, '#050508');
  }).join('');
  const text = caption
    ? `<text x="${width / 2}" y="${height * 0.12}" text-anchor="middle" font-family="Georgia, serif" font-size="${height * 0.06}" fill="rgba(255,255,255,0.85)">${caption}</text>`
    : '';
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">
  <defs>
    <linearGradient id="backdrop" x1="0" y1="0" x2="0" y2="1">
      <stop offset="0" stop-color="${deep}"/><stop offset="0.75" stop-color="${mid}"/><stop offset="1" stop-color="${deep}"/>
    </linearGradient>
    <linearGradient id="beam" x1="0" y1="0" x2="0" y2="1">
      <stop offset="0" stop-color="${light}" stop-opacity="0.9"/><stop offset="1" stop-color="${light}" stop-opacity="0.05"/>
    </linearGradient>
    <radialGradient id="pool" cx="0.5" cy="0.5" r="0.5">
      <stop offset="0" stop-color="${light}" stop-opacity="0.75"/><stop offset="1" stop-color="${light}" stop-opacity="0"/>
    </radialGradient>
  </defs>
  <rect width="${width}" height="${height}" fill="url(#backdrop)"/>
  ${beams}
  <ellipse cx="${width / 2}" cy="${floor}" rx="${width * 0.42}" ry="${height * 0.07}" fill="url(#pool)"/>
  <rect y="${floor}" width="${width}" height="${height - floor}" fill="#000" opacity="0.55"/>
  ${figures}
  ${text}
</svg>`;
}

async function exists(file: string): Promise<boolean> {
  return stat(file).then(
    () => true,
    () => false,
  );
}

/** Renders a scene to a JPEG unless the file is already there. */
export async function renderScene(file: string, options: SceneOptions): Promise<void> {
  if (await exists(file)) return;
  await mkdir(path.dirname(file), { recursive: true });
  await sharp(Buffer.from(sceneSvg(options)))
    .jpeg({ quality: 82, mozjpeg: true })
    .toFile(file);
}

/** The same scene as JPEG bytes (for previews kept in object storage). */
export function sceneJpeg(options: SceneOptions): Promise<Buffer> {
  return sharp(Buffer.from(sceneSvg(options)))
    .jpeg({ quality: 80, mozjpeg: true })
    .toBuffer();
}
