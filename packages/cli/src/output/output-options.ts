import { statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { Options } from 'yargs';

/** `--json` and `--report-html`, shared by every benchmark command. @public */
export const OUTPUT_OPTIONS: Record<'json' | 'report-html', Options> = {
  json: {
    type: 'boolean', default: false, group: 'Output:',
    describe: 'print the JSON payload to stdout instead of the text summary (pipe it to jq); logs and progress stay on stderr',
  },
  'report-html': {
    type: 'string', group: 'Output:', normalize: true,
    describe: 'also write a self-contained HTML report with plots to this path (opens offline in any browser)',
  },
};

/**
 * Checks `--report-html` before any work starts, so a long benchmark never ends in an unwritable path.
 * Returns a message naming the flag, or null when the path is usable.
 * @public
 */
export const checkReportHtmlPath = (path: string | undefined): string | null => {
  if (path === undefined) return null;
  if (path.trim() === '') return '--report-html: the path is empty';
  const target = statSync(path, { throwIfNoEntry: false });
  if (target?.isDirectory()) return `--report-html: ${path} is a directory; name a file such as ${resolve(path, 'report.html')}`;
  const parent = statSync(dirname(resolve(path)), { throwIfNoEntry: false });
  if (!parent) return `--report-html: directory ${dirname(resolve(path))} does not exist`;
  if (!parent.isDirectory()) return `--report-html: ${dirname(resolve(path))} is not a directory`;
  return null;
};
