import { readFileSync } from 'node:fs';

let cached: string | undefined;

/**
 * The minified ECharts build (Apache-2.0), read once from node_modules so reports embed it and work offline.
 * A literal `</script` inside would end the inline element early, so it is refused rather than patched.
 * @internal
 */
export const echartsSource = (): string => {
  if (cached !== undefined) return cached;
  const source = readFileSync(require.resolve('echarts/dist/echarts.min.js'), 'utf8');
  if (/<\/script/i.test(source)) throw new Error('echarts.min.js contains "</script" and cannot be inlined');
  cached = source;
  return source;
};
