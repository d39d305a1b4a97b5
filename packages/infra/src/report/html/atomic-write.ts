import { randomBytes } from 'node:crypto';
import { rename, unlink, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { err, ok, type Result } from '@maou/bench-domain';

/** A report file that could not be written; `path` is the file the user asked for. @public */
export interface ReportWriteError {
  readonly kind: 'report-write-failed';
  readonly path: string;
  readonly message: string;
}

/** What was written. @public */
export interface WrittenReport {
  readonly path: string;
  readonly bytes: number;
}

/**
 * Writes beside the target and renames over it, so a reader never sees half a report and a failed
 * run leaves any previous report untouched.
 * @public
 */
export const writeFileAtomic = async (path: string, content: string, what = 'HTML report'): Promise<Result<WrittenReport, ReportWriteError>> => {
  const temp = join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  try {
    await writeFile(temp, content, 'utf8');
    await rename(temp, path);
    return ok({ path, bytes: Buffer.byteLength(content, 'utf8') });
  } catch (e) {
    await unlink(temp).catch(() => undefined);
    const reason = e instanceof Error ? e.message : String(e);
    return err({ kind: 'report-write-failed', path, message: `cannot write ${what} ${path}: ${reason}` });
  }
};
