import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { compression } from 'vite-plugin-compression2';
import { fileURLToPath } from 'node:url';
import { startAfterPaint } from './start-after-paint.ts';
import { screenChunk } from './screen-chunk.ts';

// In development the api (port 3000) answers /api and /admin/queues; vite serves the app.
// `vite build --ssr src/server.tsx` builds the pages the api renders (decision 013) into dist-server.
export default defineConfig(({ isSsrBuild }) => ({
  root: fileURLToPath(new URL('.', import.meta.url)),
  plugins: [
    react(),
    tailwindcss(),
    // Brotli and gzip copies beside each asset, made once at build time; the api sends the one the
    // browser accepts (api/src/site/web.ts). index.html is left out: the api writes each page's head into it.
    ...(isSsrBuild
      ? []
      : [
          startAfterPaint(),
          compression({
            algorithms: ['brotliCompress', 'gzip'],
            include: /\.(js|css|svg)$/,
            threshold: 1024,
          }),
        ]),
  ],
  // Only VITE_-prefixed names could reach the bundle; we use none (runtime config comes from the page).
  envPrefix: 'VITE_PUBLIC_',
  publicDir: isSsrBuild ? false : 'public',
  build: {
    outDir: isSsrBuild ? 'dist-server' : 'dist',
    emptyOutDir: true,
    sourcemap: false,
    // .vite/manifest.json: which files a page's scripts are, for the api to name them in the page's head
    // (api/src/site/module-preloads.ts: a download page, a dancer's page).
    manifest: !isSsrBuild,
    target: isSsrBuild ? 'node20' : 'es2022',
    // A dancer's or studio's page in one file beside the entry (decision 035): web/screen-chunk.ts.
    rolldownOptions: isSsrBuild ? {} : { output: { codeSplitting: screenChunk } },
  },
  server: {
    proxy: {
      '/api': 'http://127.0.0.1:3000',
      '/admin/queues': 'http://127.0.0.1:3000',
      '/robots.txt': 'http://127.0.0.1:3000',
    },
  },
}));
