import { useMemo, useState } from 'react';
import { Download } from 'lucide-react';
import { business } from '@app/shared/site-copy/site';
import { Button } from '../components/ui/button.tsx';
import { SiteHeader } from '../components/layout/site-header.tsx';
import { SiteFooter } from '../components/layout/site-footer.tsx';
import { useDocumentTitle } from '../lib/scroll.ts';

const WIDTH = 1200;
const HEIGHT = 630;
const BACKGROUND = '/api/images/hero/stage-hero.jpg';
const FILE_NAME = 'dance-photography-facebook-cover';
const bullets = [
  'Photos Within Minutes',
  '10-Year Secure Storage',
  'Flexible Payment Plans',
  'All-in-One Mobile App',
];

/** The cover as SVG; `withBackdrop` false leaves the picture area transparent for drawing over a photo. */
function coverSvg(withBackdrop: boolean): string {
  const bulletItems = bullets
    .map((text, index) => {
      const x = 90 + index * 262;
      return `<circle cx="${x}" cy="520" r="6" fill="#f5b942"/><text x="${x + 16}" y="526" font-size="20" fill="#f4f4f5" font-family="Inter, Arial, sans-serif">${text}</text>`;
    })
    .join('');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}">
  <defs>
    <radialGradient id="glow" cx="0.5" cy="0" r="0.9"><stop offset="0" stop-color="#f5b942" stop-opacity="0.45"/><stop offset="1" stop-color="#f5b942" stop-opacity="0"/></radialGradient>
    <linearGradient id="shade" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#07070c" stop-opacity="0.35"/><stop offset="1" stop-color="#07070c" stop-opacity="0.9"/></linearGradient>
  </defs>
  ${withBackdrop ? `<rect width="${WIDTH}" height="${HEIGHT}" fill="#0b0b12"/><rect width="${WIDTH}" height="${HEIGHT}" fill="url(#glow)"/>` : ''}
  <rect width="${WIDTH}" height="${HEIGHT}" fill="url(#shade)"/>
  <text x="600" y="150" text-anchor="middle" font-size="24" letter-spacing="8" fill="#fbd78a" font-family="Inter, Arial, sans-serif">PHOTOGRAPHY &amp; VIDEOGRAPHY</text>
  <text x="600" y="260" text-anchor="middle" font-size="56" font-weight="bold" fill="#ffffff" font-family="Georgia, 'Times New Roman', serif">Capturing Every Leap, Turn, and Triumph</text>
  <text x="600" y="340" text-anchor="middle" font-size="30" fill="#e4e4e7" font-family="Inter, Arial, sans-serif">Dance Competitions • Stage Shows • Instant Delivery</text>
  <text x="600" y="420" text-anchor="middle" font-size="26" fill="#f5b942" font-family="Georgia, serif">${business.name}</text>
  ${bulletItems}
</svg>`;
}

function saveBlob(blob: Blob, name: string) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 1_000);
}

function loadImage(src: string): Promise<HTMLImageElement> {
  return new Promise((resolve, reject) => {
    const image = new Image();
    image.onload = () => resolve(image);
    image.onerror = () => reject(new Error(`Could not load ${src}`));
    image.src = src;
  });
}

const svgUrl = (svg: string) => URL.createObjectURL(new Blob([svg], { type: 'image/svg+xml' }));

/** PNG from the stock background with the cover drawn over it; the plain SVG when the photo cannot load. */
async function renderPng(): Promise<Blob> {
  const canvas = document.createElement('canvas');
  canvas.width = WIDTH;
  canvas.height = HEIGHT;
  const context = canvas.getContext('2d')!;
  let overlay: string;
  try {
    const background = await loadImage(BACKGROUND);
    const scale = Math.max(WIDTH / background.width, HEIGHT / background.height);
    const width = background.width * scale;
    const height = background.height * scale;
    context.drawImage(background, (WIDTH - width) / 2, (HEIGHT - height) / 2, width, height);
    overlay = coverSvg(false);
  } catch {
    console.warn('Failed to load background image');
    overlay = coverSvg(true);
  }
  const url = svgUrl(overlay);
  try {
    context.drawImage(await loadImage(url), 0, 0);
  } finally {
    URL.revokeObjectURL(url);
  }
  return new Promise((resolve, reject) =>
    canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('PNG failed'))), 'image/png'),
  );
}

export default function FacebookCoverPage() {
  useDocumentTitle(`Cover Image | ${business.name}`);
  const svg = useMemo(() => coverSvg(true), []);
  const [busy, setBusy] = useState(false);

  return (
    <>
      <SiteHeader />
      <main className="px-6 pt-28 pb-20">
        <div className="mx-auto max-w-3xl text-center">
          <h1 className="text-4xl font-bold text-white">Social Media Cover</h1>
          <p className="mt-4 text-zinc-400">A cover image for the Facebook page, in the site’s colours.</p>
          <div
            className="relative mx-auto mt-10 aspect-[1200/630] w-full max-w-[600px] overflow-hidden rounded-xl border border-white/10 shadow-2xl"
            role="img"
            aria-label="Cover preview: Capturing Every Leap, Turn, and Triumph"
          >
            <img src={`${BACKGROUND}?w=640`} alt="" className="absolute inset-0 size-full object-cover" />
            <img
              src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(coverSvg(false))}`}
              alt=""
              className="absolute inset-0 size-full"
            />
          </div>
          <div className="mt-8 flex flex-col justify-center gap-3 sm:flex-row">
            <Button
              disabled={busy}
              onClick={async () => {
                setBusy(true);
                try {
                  saveBlob(await renderPng(), `${FILE_NAME}.png`);
                } finally {
                  setBusy(false);
                }
              }}
            >
              <Download className="size-4" aria-hidden /> Download as PNG
            </Button>
            <Button
              variant="secondary"
              onClick={() => saveBlob(new Blob([svg], { type: 'image/svg+xml' }), `${FILE_NAME}.svg`)}
            >
              <Download className="size-4" aria-hidden /> Download as SVG
            </Button>
          </div>
          <section
            aria-labelledby="usage-title"
            className="mx-auto mt-12 max-w-xl rounded-2xl border border-white/10 bg-stage-800/70 p-6 text-left"
          >
            <h2 id="usage-title" className="text-lg font-semibold text-white">
              Usage notes
            </h2>
            <ul className="mt-3 list-disc space-y-1 pl-5 text-zinc-300">
              <li>1200x630 pixels.</li>
              <li>Use PNG for Facebook, SVG for editing.</li>
              <li>The design matches the site branding.</li>
            </ul>
          </section>
        </div>
      </main>
      <SiteFooter />
    </>
  );
}
