import { chromium } from 'playwright-core';
import type { TestProject } from 'vitest/node';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './browser.ts';

/** Global setup of the slow lane: one Chromium for the whole run; each test file connects with its own contexts. */
export default async function sharedBrowser(project: TestProject) {
  const server = await chromium.launchServer({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  project.provide('browserEndpoint', server.wsEndpoint());
  return () => server.close();
}
