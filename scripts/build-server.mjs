// Bundles the api and the worker to plain JavaScript ({api,worker}/dist/index.mjs); docs/decisions/001.
// Our own TypeScript (the package and @app/shared) goes into the bundle; npm packages stay imports,
// loaded from node_modules as usual, so lazily imported ones (sharp, bull-board) stay lazy.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { root } from './lib.mjs';

export const serverEntries = { api: 'api/dist/index.mjs', worker: 'worker/dist/index.mjs' };
/**
 * Worker threads' own bundles, beside their server's (each thread loads its file by URL): the worker's
 * PDF thread (worker/src/clients/pdf-renderer.ts).
 */
const threadEntries = { worker: { 'pdf-thread': 'worker/src/clients/pdf-thread.ts' } };

const npmPackagesExternal = {
  name: 'npm-packages-external',
  setup(builder) {
    builder.onResolve({ filter: /^[^./]/ }, ({ path }) =>
      path.startsWith('@app/') ? undefined : { path, external: true },
    );
  },
};

export async function buildServer() {
  await Promise.all(
    Object.entries(serverEntries).map(([name, outfile]) =>
      build({
        absWorkingDir: root,
        entryPoints: { index: `${name}/src/index.ts`, ...threadEntries[name] },
        outdir: path.dirname(outfile),
        outExtension: { '.js': '.mjs' },
        bundle: true,
        platform: 'node',
        format: 'esm',
        target: 'node20',
        plugins: [npmPackagesExternal],
        // Our own modules imported with import() become chunks of their own, so the npm packages
        // they import (the S3 SDK, pdfkit) load when they are first needed, not at start.
        splitting: true,
        chunkNames: 'chunks/[name]-[hash]',
        // Kept beside the bundle for `node --enable-source-maps` when reading a stack trace.
        sourcemap: true,
        logLevel: 'warning',
      }),
    ),
  );
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await buildServer();
