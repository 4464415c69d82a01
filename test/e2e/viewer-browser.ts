import { rmSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';
import { type startCli, startViewer } from './cli.js';

/** The Chromium the viewer tests drive. */
export const CHROMIUM = '/usr/bin/chromium';

/** `medbench view` (the built CLI, with `options`) over a home, and a headless Chromium; `close` stops both and removes the home. */
export async function viewerInChromium(
  home: string,
  options: readonly string[] = [],
): Promise<{ browser: Browser; viewer: ReturnType<typeof startCli>; url: string; close(): Promise<void> }> {
  const { viewer, url } = await startViewer(home, options);
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu'],
  });
  return {
    browser,
    viewer,
    url,
    close: async () => {
      await browser.close();
      viewer.child.kill('SIGINT');
      await viewer.done;
      rmSync(home, { recursive: true, force: true });
    },
  };
}
