import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type axe from 'axe-core';
import type { Page } from 'playwright-core';

// The accessibility checks the site is held to (issue 33): the W3C Nu HTML checker over the HTML the
// server sends, and axe's WCAG 2.1 A and AA rules over the page the browser shows.

const vnuJar = path.join(
  path.dirname(createRequire(import.meta.url).resolve('vnu-jar')),
  'build/dist/vnu.jar',
);

export interface NuMessage {
  type: 'error' | 'info' | 'non-document-error';
  subType?: string;
  message: string;
  extract?: string;
  lastLine?: number;
  url: string;
}

/**
 * The Nu checker's errors for each document (name → HTML), in one Java run: the checker takes a few
 * seconds to start and well under one to check a page. Warnings ("info") are left out.
 */
export async function nuErrors(documents: Record<string, string>): Promise<Record<string, NuMessage[]>> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'nu-'));
  try {
    const names = Object.keys(documents);
    const files = names.map((_, index) => path.join(dir, `${index}.html`));
    await Promise.all(names.map((name, index) => writeFile(files[index]!, documents[name]!)));
    // --exit-zero-always: errors are read from the report, not the exit code.
    const { stdout } = await promisify(execFile)(
      'java',
      ['-jar', vnuJar, '--format', 'json', '--stdout', '--exit-zero-always', '--no-langdetect', ...files],
      { maxBuffer: 64 * 1024 * 1024 },
    );
    const { messages } = JSON.parse(stdout) as { messages: NuMessage[] };
    const byName: Record<string, NuMessage[]> = Object.fromEntries(names.map((name) => [name, []]));
    for (const message of messages) {
      if (message.type === 'info') continue;
      const index = files.findIndex((file) => message.url.endsWith(`/${path.basename(file)}`));
      const name = names[index];
      if (name === undefined)
        throw new Error(`Nu checker: a message about no document: ${JSON.stringify(message)}`);
      byName[name]!.push(message);
    }
    return byName;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** A Nu error in one line: the message and the markup it points at. */
export const describeNu = (message: NuMessage) =>
  `line ${message.lastLine ?? '?'}: ${message.message}${message.extract ? ` in ${JSON.stringify(message.extract.trim())}` : ''}`;

export const WCAG_21_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

export interface AxeFinding {
  rule: string;
  impact: string;
  help: string;
  /** The elements' selectors, with axe's summary of the first one's failure. */
  targets: string[];
  summary: string;
}

const axeSource = readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * axe's serious and critical WCAG 2.1 A/AA violations on the page as it is now, one entry per rule.
 * axe-core itself, put into the page once per document and run as often as asked (at each width):
 * @axe-core/playwright's AxeBuilder injects it on every call and finishes each run in a new blank
 * page, which measured 2-5 times slower here. The app has no iframes for it to reach into.
 */
export async function axeViolations(page: Page): Promise<AxeFinding[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(await axeSource);
  const violations = await page.evaluate(
    (tags) =>
      (window as unknown as { axe: typeof axe }).axe
        .run(document, {
          runOnly: { type: 'tag', values: tags },
          // Violations alone: lists of passes are not read.
          resultTypes: ['violations'],
        })
        .then((results) => results.violations),
    WCAG_21_AA,
  );
  return violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => ({
      rule: violation.id,
      impact: violation.impact!,
      help: violation.help,
      targets: violation.nodes.map((node) => node.target.join(' ')),
      summary: violation.nodes[0]?.failureSummary?.split('\n').slice(0, 2).join(' ') ?? '',
    }));
}

/** Findings in one line each, for a failure message that says what to fix. */
export const describeAxe = (finding: AxeFinding) =>
  `${finding.rule} (${finding.impact}, ${finding.targets.length}): ${finding.help}; ${finding.targets.slice(0, 4).join(', ')}; ${finding.summary}`;
