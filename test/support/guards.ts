/**
 * A setup file of every lane: a test fails when something went wrong that its assertions did not look
 * at: an unexpected `console.error`, an error-level log of the api or worker (in process or spawned),
 * or a connection to a host that is not this machine.
 */
import { afterAll, afterEach, beforeEach } from 'vitest';
import { createLogger, type Logger } from '@app/shared/logger';
import { refuseOutboundConnections } from './no-outbound.mjs';

// Kept on globalThis: the fast lane runs files without isolation, where the setup file is evaluated again
// for every file while a test's own import of this module may be an earlier evaluation. One state per
// process means a report or an allowance always reaches the hooks that check it.
interface GuardState {
  problems: string[];
  allowedInFile: RegExp[];
  allowedInTest: RegExp[];
  /** Set between a test's start and end, so a call outside a test is known to be the file's. */
  inTest: boolean;
}
const stateKey = Symbol.for('stagelight.guards.state');
const stateHolder = globalThis as typeof globalThis & { [stateKey]?: GuardState };
const state = (stateHolder[stateKey] ??= { problems: [], allowedInFile: [], allowedInTest: [], inTest: false });
const { problems, allowedInFile, allowedInTest } = state;

/**
 * Says that an error log or `console.error` matching `pattern` is expected: in the test that calls it,
 * or in the whole file when called outside a test.
 */
export function expectErrorLogs(...patterns: RegExp[]): void {
  // Not expect.getState().currentTestName: without isolation it still holds the previous file's last test.
  (state.inTest ? allowedInTest : allowedInFile).push(...patterns);
}

/** Records an error-level message, unless the running test or file said it expects it. */
export function reportError(source: string, text: string): void {
  if ([...allowedInFile, ...allowedInTest].some((pattern) => pattern.test(text))) return;
  problems.push(`${source}: ${text.length > 2_000 ? `${text.slice(0, 2_000)}…` : text}`);
}

/** Reports the error-level lines (pino's level ≥ 50) of a process's or logger's JSON output. */
export function reportErrorLogLines(source: string, output: string): void {
  for (const line of output.split('\n')) {
    if (!line.startsWith('{')) {
      if (line.startsWith('OUTBOUND REFUSED')) reportError(source, line);
      continue;
    }
    try {
      const entry = JSON.parse(line) as { level?: number };
      if ((entry.level ?? 0) >= 50) reportError(source, line);
    } catch {
      // Not a log line (a stack trace's continuation is part of the line before).
    }
  }
}

/** A logger for the api or worker in process: silent, but an error-level line fails the test. */
export function createTestLogger(name: string): Logger {
  const level = process.env.TEST_LOG_LEVEL;
  if (level) return createLogger({ name, level });
  return createLogger({
    name,
    level: 'error',
    destination: { write: (line: string) => reportErrorLogLines(name, line) },
  });
}

// Patched once per process; the unit lane runs files in one process without isolation, so the patches
// report to the latest evaluation of this module (the running file's).
const current = Symbol.for('stagelight.guards');
const global = globalThis as typeof globalThis & { [current]?: typeof reportError };
if (!global[current]) {
  refuseOutboundConnections((host: string, port: unknown) =>
    global[current]!(
      'network',
      `a connection to ${host}:${String(port)} was refused (tests talk to local fakes only)`,
    ),
  );
  const consoleError = console.error.bind(console);
  console.error = (...args: unknown[]) => {
    global[current]!(
      'console.error',
      args.map((arg) => (arg instanceof Error ? arg.stack : String(arg))).join(' '),
    );
    consoleError(...args);
  };
}
global[current] = reportError;

/** The problems recorded since the last test ended (they no longer fail the running test). */
export function takeProblems(): string[] {
  return problems.splice(0, problems.length);
}

// Only under vitest: the benches import processes.ts (and so this file) as plain scripts.
if (process.env.VITEST) {
  beforeEach(() => {
    state.inTest = true;
  });

  afterEach(() => {
    state.inTest = false;
    allowedInTest.length = 0;
    const found = takeProblems();
    if (found.length > 0) throw new Error(`Unexpected errors during the test:\n${found.join('\n')}`);
  });

  // Errors while a file's world is built or taken down.
  afterAll(() => {
    const found = takeProblems();
    allowedInFile.length = 0;
    if (found.length > 0) throw new Error(`Unexpected errors outside the tests:\n${found.join('\n')}`);
  });
}
