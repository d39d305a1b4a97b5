import { createHash } from 'node:crypto';
import { echartsSource } from './echarts-bundle';
import { embedJson, escapeHtml } from './embed-json';
import { PAGE_CSS, PAGE_SCRIPT } from './page-assets';
import type { ReportPage } from './report-page';

const sha256 = (text: string): string => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

/**
 * Renders one self-contained HTML document: styles, data, ECharts and the page script all inline.
 * The content security policy allows only these two scripts by hash and no network at all, so the
 * file works offline and an injected handler in the data could not run even if it reached the DOM.
 * @public
 */
export const renderReportPage = (page: ReportPage): string => {
  const library = echartsSource();
  const csp = [
    "default-src 'none'",
    `script-src ${sha256(library)} ${sha256(PAGE_SCRIPT)}`,
    "style-src 'unsafe-inline'",
    'img-src data:',
  ].join('; ');
  return [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8">',
    // the marker that tells a later run this file is a report it may replace (files/output-kinds.ts)
    '<meta name="generator" content="maou-bench">',
    `<meta http-equiv="Content-Security-Policy" content="${csp}">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(page.title)}</title>`,
    `<style>${PAGE_CSS}</style>`,
    '</head><body><main id="report"></main>',
    `<script type="application/json" id="report-data">${embedJson(page)}</script>`,
    `<script>${library}</script>`,
    `<script>${PAGE_SCRIPT}</script>`,
    '</body></html>',
    '',
  ].join('\n');
};
