import type { OutputKind } from '../../files/atomic-file';
import { JSON_REPORT } from '../../files/output-kinds';
import { writeReportFile } from '../html/atomic-write';

/** JSON with NaN/Infinity as null (JSON has no such numbers). @public */
export const toJson = (payload: unknown): string =>
  `${JSON.stringify(payload, (_k, v: unknown) => (typeof v === 'number' && !Number.isFinite(v) ? null : v), 2)}\n`;

/**
 * Writes a payload atomically; an existing file is replaced only by a complete one, and only when it is a `kind` this
 * product wrote (default: a report).
 * @public
 */
export const writeJsonReport = async (
  payload: unknown,
  path: string,
  kind: OutputKind = JSON_REPORT,
): Promise<void> => {
  const r = await writeReportFile(path, toJson(payload), kind === JSON_REPORT ? 'JSON output' : kind.what, kind);
  if (!r.ok) throw new Error(r.error.message);
};
