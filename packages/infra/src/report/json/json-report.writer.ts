import { writeReportFile } from '../html/atomic-write';

/** JSON with NaN/Infinity as null (JSON has no such numbers). @public */
export const toJson = (payload: unknown): string =>
  `${JSON.stringify(payload, (_k, v: unknown) => (typeof v === 'number' && !Number.isFinite(v) ? null : v), 2)}\n`;

/** Writes a payload atomically; an existing file is replaced only by a complete one. @public */
export const writeJsonReport = async (payload: unknown, path: string): Promise<void> => {
  const r = await writeReportFile(path, toJson(payload), 'JSON output');
  if (!r.ok) throw new Error(r.error.message);
};
