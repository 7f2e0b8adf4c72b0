import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { CANARY_SECRETS } from '../support/canary-secrets.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const dirs: string[] = [];
afterAll(() => Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true }))));

/** The secrets found in a build's files, as "NAME in file". */
async function secretsIn(outDir: string): Promise<string[]> {
  const entries = await readdir(outDir, { withFileTypes: true, recursive: true });
  const files = entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name));
  expect(files.some((file) => file.endsWith('.js'))).toBe(true);
  const found: string[] = [];
  for (const file of files) {
    const bytes = await readFile(file);
    for (const [name, value] of Object.entries(CANARY_SECRETS)) {
      if (bytes.includes(value)) found.push(`${name} in ${path.relative(outDir, file)}`);
    }
  }
  return found;
}

describe('the web bundle', () => {
  // The run's build (test/support/global-setup.ts) was made with the canary secrets in its environment.
  it('contains none of the secrets it was built alongside', async () => {
    expect(await secretsIn(path.join(root, 'web/dist'))).toEqual([]);
  });

  it('the scan finds a secret that a define let into a chunk', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'stagelight-leaky-build-'));
    dirs.push(dir);
    await mkdir(path.join(dir, 'assets'));
    await writeFile(path.join(dir, 'index.html'), '<!doctype html><script src="/assets/index.js"></script>');
    // What vite makes of `define: { 'import.meta.env.STRIPE_SECRET_KEY': ... }` read by app code.
    await writeFile(
      path.join(dir, 'assets/index.js'),
      `const a=${JSON.stringify(CANARY_SECRETS.STRIPE_SECRET_KEY)};console.info(a);`,
    );
    expect(await secretsIn(dir)).toEqual(['STRIPE_SECRET_KEY in assets/index.js']);
  });
});
