import { err, ok, type Result } from '@maou/bench-domain';
import { writeFileAtomic, type OutputKind } from '../../files/atomic-file';
import { fileCause } from '../../files/file-error';
import { HTML_REPORT } from '../../files/output-kinds';

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
 * Writes a report with {@link writeFileAtomic}, so a reader never sees half a report and a failed run leaves any
 * previous report untouched; a failure is a value naming the file and what it was.
 * @public
 */
export const writeReportFile = async (
  path: string,
  content: string,
  what = 'HTML report',
  kind: OutputKind = HTML_REPORT,
): Promise<Result<WrittenReport, ReportWriteError>> => {
  try {
    await writeFileAtomic(path, content, kind);
    return ok({ path, bytes: Buffer.byteLength(content, 'utf8') });
  } catch (e) {
    return err({ kind: 'report-write-failed', path, message: `cannot write ${what} ${path}: ${fileCause(e)}` });
  }
};
