import type { Recommendation } from '@maou/bench-domain';

/** The "Recommendations" block that ends every console summary: one line per rule that fired, with its flag. */
export const recommendationLines = (recommendations: readonly Recommendation[]): string[] => [
  '',
  '  Recommendations',
  ...(recommendations.length
    ? recommendations.map((x) => `  - ${x.message}${x.flag ? ` → ${x.flag} ${x.value}` : ''} [${x.evidence}]`)
    : ['  - none: no rule fired']),
];
