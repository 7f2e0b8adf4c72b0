// The Node production runs (docs/decisions/016): the Dockerfile, `engines` and the exact version CI installs
// name one release line, and the api and worker the tests start run on the Node running the tests, so the
// second pass of .ci/run really tests the servers on production's Node.
import { readFile } from 'node:fs/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { startApi, startWorker, type RunningProcess } from '../support/processes.ts';
import { useTestWorld } from '../support/world.ts';

const root = new URL('../../', import.meta.url);
const METRICS_TOKEN = 'node-runtime-test';
const { env } = useTestWorld({ env: { METRICS_TOKEN } });
const started: RunningProcess[] = [];
afterAll(() => Promise.all(started.map((process) => process.stop())));

/** The `version` label of prom-client's nodejs_version_info in a /metrics answer. */
async function nodeVersionServing(url: string): Promise<string | undefined> {
  const response = await fetch(url, { headers: { Authorization: `Bearer ${METRICS_TOKEN}` } });
  return /^nodejs_version_info\{version="(v[\d.]+)"/m.exec(await response.text())?.[1];
}

describe('the Node production runs', () => {
  it('is one release line in the Dockerfile, engines and the version CI installs', async () => {
    const [dockerfile, packageJson, pinned] = await Promise.all(
      ['infra/Dockerfile', 'package.json', '.node-version'].map((file) =>
        readFile(new URL(file, root), 'utf8'),
      ),
    );
    const major = /^(\d+)\.\d+\.\d+$/.exec(pinned!.trim())?.[1];
    expect(major, '.node-version holds an exact version').toBeDefined();
    const images = [...dockerfile!.matchAll(/^FROM (\S+)/gm)].map((match) => match[1]);
    expect(images.filter((image) => image!.startsWith('node:'))).toEqual([
      `node:${major}-bookworm-slim`,
      `node:${major}-bookworm-slim`,
    ]);
    expect((JSON.parse(packageJson!) as { engines: { node: string } }).engines.node).toBe(`>=${major}`);
  });

  it('runs the api and worker it starts on the Node running the tests', async () => {
    const [api, worker] = await Promise.all([startApi(env.env), startWorker(env.env)]);
    started.push(api, worker);
    const workerPort = /"port":(\d+)[^\n]*worker metrics listening/.exec(worker.output())?.[1];
    expect(workerPort, worker.output()).toBeDefined();
    expect(await nodeVersionServing(`${api.url}/metrics`)).toBe(process.version);
    expect(await nodeVersionServing(`http://127.0.0.1:${workerPort}/metrics`)).toBe(process.version);
  });
});
