import { execFileSync } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
let outDir: string | undefined;

afterAll(async () => {
  if (outDir) await rm(outDir, { recursive: true, force: true });
});

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => path.join(entry.parentPath, entry.name));
}

describe('the web bundle', () => {
  it('contains none of the secrets it was built alongside', { timeout: 120_000 }, async () => {
    outDir = await mkdtemp(path.join(os.tmpdir(), 'stagelight-bundle-'));
    const secrets = {
      SESSION_SECRET: `session-${Math.random().toString(36).slice(2)}-secret-0123456789abcdef`,
      ADMIN_PASSWORD: `admin-${Math.random().toString(36).slice(2)}-password`,
      STRIPE_SECRET_KEY: `sk_test_${Math.random().toString(36).slice(2)}`,
      STRIPE_WEBHOOK_SECRET: `whsec_${Math.random().toString(36).slice(2)}`,
    };
    execFileSync(
      'npx',
      ['vite', 'build', '--config', 'web/vite.config.ts', '--outDir', outDir, '--emptyOutDir'],
      {
        cwd: root,
        env: { ...process.env, ...secrets },
        stdio: 'pipe',
      },
    );
    const files = await filesUnder(outDir);
    expect(files.some((file) => file.endsWith('.js'))).toBe(true);
    for (const file of files) {
      const text = await readFile(file, 'utf8');
      for (const [name, value] of Object.entries(secrets)) {
        expect(text.includes(value), `${name} found in ${path.relative(outDir, file)}`).toBe(false);
      }
    }
  });
});
