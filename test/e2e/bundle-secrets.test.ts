import { execFileSync } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'stagelight-bundle-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const secrets = {
  SESSION_SECRET: `session-${Math.random().toString(36).slice(2)}-secret-0123456789abcdef`,
  ADMIN_PASSWORD: `admin-${Math.random().toString(36).slice(2)}-password`,
  STRIPE_SECRET_KEY: `sk_test_${Math.random().toString(36).slice(2)}`,
  STRIPE_WEBHOOK_SECRET: `whsec_${Math.random().toString(36).slice(2)}`,
};

/**
 * Builds the web app with web/vite.config.ts in a process whose environment holds the secrets, as a
 * production build on a configured machine would. `leak` adds the mistake this test must be able to
 * see: a `define` that hands the Stripe key to the browser, and a line of app code that reads it.
 */
function buildWeb(outDir: string, leak = false) {
  const script = `
    import { build } from 'vite';
    const leak = ${JSON.stringify(leak)};
    await build({
      configFile: 'web/vite.config.ts',
      logLevel: 'warn',
      build: { outDir: ${JSON.stringify(outDir)}, emptyOutDir: true },
      ...(leak && {
        define: { 'import.meta.env.STRIPE_SECRET_KEY': JSON.stringify(process.env.STRIPE_SECRET_KEY) },
        plugins: [{
          name: 'reads-a-secret',
          transform: (code, id) =>
            id.endsWith('/web/src/main.tsx') ? code + '\\nconsole.info(import.meta.env.STRIPE_SECRET_KEY);' : null,
        }],
      }),
    });`;
  execFileSync(process.execPath, ['--input-type=module', '-e', script], {
    cwd: root,
    env: { ...process.env, ...secrets },
    stdio: 'pipe',
  });
}

/** The secrets found in the build's files, as "NAME in file". */
async function secretsIn(outDir: string): Promise<string[]> {
  const entries = await readdir(outDir, { withFileTypes: true, recursive: true });
  const files = entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name));
  expect(files.some((file) => file.endsWith('.js'))).toBe(true);
  const found: string[] = [];
  for (const file of files) {
    const bytes = await readFile(file);
    for (const [name, value] of Object.entries(secrets)) {
      if (bytes.includes(value)) found.push(`${name} in ${path.relative(outDir, file)}`);
    }
  }
  return found;
}

describe('the web bundle', () => {
  it('contains none of the secrets it was built alongside', { timeout: 180_000 }, async () => {
    const outDir = path.join(dir, 'real');
    buildWeb(outDir);
    expect(await secretsIn(outDir)).toEqual([]);
  });

  it('would show a secret that a define let into the bundle', { timeout: 180_000 }, async () => {
    const outDir = path.join(dir, 'leaky');
    buildWeb(outDir, true);
    expect((await secretsIn(outDir)).map((found) => found.split(' ')[0])).toEqual(['STRIPE_SECRET_KEY']);
  });
});
