import { describe, expect, it } from 'vitest';
import { expectErrorLogs, reportErrorLogLines, takeProblems } from './guards.ts';

describe('the guards every test runs under', () => {
  it('refuse a connection to another host, and fail the test that made it', async () => {
    await expect(fetch('http://example.com/')).rejects.toThrow();
    expect(takeProblems()).toEqual([
      'network: a connection to example.com:80 was refused (tests talk to local fakes only)',
    ]);
  });

  it('let connections to this machine through', async () => {
    await expect(fetch('http://127.0.0.1:9/')).rejects.toThrow();
    expect(takeProblems()).toEqual([]);
  });

  it('fail a test on console.error, unless the test said it expects it', () => {
    console.error('a render failed');
    expect(takeProblems()).toEqual(['console.error: a render failed']);
    expectErrorLogs(/render failed/);
    console.error('a render failed');
    expect(takeProblems()).toEqual([]);
  });

  it("read a process's error-level log lines and refused connections, nothing below", () => {
    reportErrorLogLines(
      'api',
      [
        '{"level":30,"msg":"request refused"}',
        '{"level":40,"msg":"slow"}',
        '{"level":50,"msg":"request failed"}',
        'OUTBOUND REFUSED example.com:443',
        'a line that is not a log line',
      ].join('\n'),
    );
    expect(takeProblems()).toEqual([
      'api: {"level":50,"msg":"request failed"}',
      'api: OUTBOUND REFUSED example.com:443',
    ]);
  });
});
