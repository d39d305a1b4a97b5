import { readFile } from 'node:fs/promises';
import {
  READABLE_REPORT_SCHEMA_VERSIONS,
  err,
  ok,
  type BenchmarkTrainingReport,
  type ComparableTrainingReport,
  type Result,
} from '@maou/bench-domain';

/** Reads a `benchmark-training --output-json` file of any readable schema version, checking that it is one. @public */
export const readTrainingReport = async (path: string): Promise<Result<ComparableTrainingReport, string>> => {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (e) {
    return err(`${path}: cannot read (${e instanceof Error ? e.message : String(e)})`);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    return err(`${path}: not JSON (${e instanceof Error ? e.message : String(e)})`);
  }
  const r = data as Partial<BenchmarkTrainingReport> | null;
  if (!r || r.command !== 'benchmark-training')
    return err(`${path}: field 'command' is not 'benchmark-training'; pass files written by --output-json`);
  if (!READABLE_REPORT_SCHEMA_VERSIONS.includes(r.schema_version as number)) {
    return err(
      `${path}: field 'schema_version' is ${String(r.schema_version)}, expected one of ${READABLE_REPORT_SCHEMA_VERSIONS.join(', ')}`,
    );
  }
  if (
    !Array.isArray(r.batches) ||
    r.batches.some((b) => typeof b?.wallMs !== 'number' || typeof b?.warmup !== 'boolean')
  ) {
    return err(`${path}: field 'batches' must list batches with wallMs and warmup`);
  }
  if (!r.environment || !r.config || !r.training_metrics || !r.model)
    return err(`${path}: missing environment, config, model or training_metrics`);
  return ok(r as ComparableTrainingReport);
};
