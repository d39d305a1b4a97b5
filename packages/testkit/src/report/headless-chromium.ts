import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

// Flags for a quiet, offline, throw-away browser; --no-sandbox because CI runs as root.
const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--hide-scrollbars',
  '--virtual-time-budget=5000',
];

/** Path of a Chromium binary, or null when none is installed (tests then skip with a message). @internal */
export const findChromium = (): string | null =>
  [process.env['CHROMIUM_PATH'], '/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'].find(
    (p): p is string => p !== undefined && p !== '' && existsSync(p),
  ) ?? null;

const run = async (chromium: string, args: readonly string[]): Promise<{ stdout: string; stderr: string }> => {
  const profile = await mkdtemp(join(tmpdir(), 'maou-chromium-'));
  try {
    return await new Promise((resolve, reject) => {
      execFile(
        chromium,
        [...FLAGS, `--user-data-dir=${profile}`, ...args],
        { timeout: 60_000, maxBuffer: 64 * 1024 * 1024 },
        (error, stdout, stderr) =>
          error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve({ stdout, stderr }),
      );
    });
  } finally {
    await rm(profile, { recursive: true, force: true });
  }
};

/** The DOM after the page's scripts ran, as Chromium serialises it. @internal */
export const dumpDom = async (chromium: string, htmlFile: string): Promise<string> =>
  (await run(chromium, ['--dump-dom', pathToFileURL(htmlFile).href])).stdout;

/** A PNG screenshot of the page at the given window size. @internal */
export const screenshot = async (
  chromium: string,
  htmlFile: string,
  pngFile: string,
  width = 1280,
  height = 3000,
): Promise<void> => {
  await run(chromium, [`--screenshot=${pngFile}`, `--window-size=${width},${height}`, pathToFileURL(htmlFile).href]);
};

/** `data-rendered` counts of every chart element in a dumped DOM, by element id. @internal */
export const renderedCharts = (dom: string): Map<string, number> => {
  const found = new Map<string, number>();
  for (const m of dom.matchAll(/<div class="chart" id="chart-([\w-]+)"[^>]*?data-rendered="(\d+) points"/g))
    found.set(m[1]!, Number(m[2]));
  return found;
};
