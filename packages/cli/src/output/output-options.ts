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
