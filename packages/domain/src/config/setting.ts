import { describeRange, formatBound, type NumberBounds } from '../errors/number-bounds';

/**
 * A configurable value with one owner: its flag, default, bounds and unit live here, and the help text, the range
 * check and the config builder read them (before, a default lived in a help string and again in a `?? x`).
 * @public
 */
export interface Setting {
  readonly flag: string;
  /** absent: none, or derived elsewhere (the resources, another flag), as the help says */
  readonly default?: number;
  readonly bounds: NumberBounds;
  /** what the number counts, for the help ("seconds") */
  readonly unit?: string;
}

/** "1 to 65,536 (default 256)" or "(0, 604,800] seconds (default 60)", for a flag's help. @public */
export const describeSetting = (s: Setting): string =>
  `${describeRange(s.bounds)}${s.unit ? ` ${s.unit}` : ''}${s.default === undefined ? '' : ` (default ${formatBound(s.default)})`}`;

/** "(default 0.01)", for a help text whose range goes unsaid. @public */
export const describeDefault = (s: Setting & { readonly default: number }): string =>
  `(default ${formatBound(s.default)}${s.unit ? ` ${s.unit}` : ''})`;
