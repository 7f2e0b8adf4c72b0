import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { reportErrorLogLines } from './guards.ts';
import { freePort } from './services.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** How long a spawned server may take to answer: generous, since a busy 2-core machine starts two Node processes slowly. */
const STARTUP_DEADLINE_MS = 45_000;

export interface RunningProcess {
  child: ChildProcess;
  output: () => string;
  /** SIGTERM and wait for exit; resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
  exited: Promise<number | null>;
}

function run(entry: string, env: Record<string, string>): RunningProcess {
  // The bundle and flags production runs (scripts/start.mjs, infra/docker-entrypoint.sh; docs/decisions/001
  // and 011), built by the test run's global setup or prepareBenchEnv.
  // Plus the guard that refuses connections to other hosts (test/support/no-outbound.mjs).
  const guard = ['--import', './test/support/no-outbound.mjs'];
  const child = spawn(process.execPath, [...guard, '--max-semi-space-size=4', '--max-old-space-size=384', entry], {
    cwd: root,
    env: {
      MALLOC_ARENA_MAX: '2',
      MALLOC_MMAP_THRESHOLD_: '131072',
      ...process.env,
      STAGELIGHT_REFUSE_OUTBOUND: 'report',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  let checked = 0;
  const read = (chunk: Buffer) => {
    output += chunk.toString();
    // Whole lines only: an error-level log line fails the running test (test/support/guards.ts).
    const end = output.lastIndexOf('\n') + 1;
    if (end > checked) reportErrorLogLines(entry, output.slice(checked, end));
    checked = Math.max(checked, end);
  };
  child.stdout!.on('data', read);
  child.stderr!.on('data', read);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    child,
    output: () => output,
    exited,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}

export interface RunningApi extends RunningProcess {
  url: string;
}

/** The real api process on a free port; resolves once /healthz answers. */
export async function startApi(env: Record<string, string>): Promise<RunningApi> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
    // Errors logged, so the guard sees them; a test that sets its own level keeps it.
  const level = env.LOG_LEVEL && env.LOG_LEVEL !== 'silent' ? env.LOG_LEVEL : 'error';
  const proc = run('api/dist/index.mjs', { ...env, LOG_LEVEL: level, PUBLIC_URL: url, PORT: String(port) });
  const deadline = Date.now() + STARTUP_DEADLINE_MS;
  for (;;) {
    if (proc.child.exitCode !== null) throw new Error(`api exited early:\n${proc.output()}`);
    const ok = await fetch(`${url}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return { ...proc, url };
    if (Date.now() > deadline) {
      await proc.stop('SIGKILL');
      throw new Error(`api did not start:\n${proc.output()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The real worker process; resolves once it logged that its queues are running. */
export async function startWorker(env: Record<string, string>): Promise<RunningProcess> {
  // Metrics (when a test sets METRICS_TOKEN) on a free port: several workers may run at once.
  const proc = run('worker/dist/index.mjs', { WORKER_METRICS_PORT: '0', ...env, LOG_LEVEL: 'info' });
  const deadline = Date.now() + STARTUP_DEADLINE_MS;
  while (!proc.output().includes('worker started')) {
    if (proc.child.exitCode !== null) throw new Error(`worker exited early:\n${proc.output()}`);
    if (Date.now() > deadline) {
      await proc.stop('SIGKILL');
      throw new Error(`worker did not start:\n${proc.output()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return proc;
}
