import { readFile } from 'node:fs/promises';
import { REPORT_SCHEMA_VERSION, err, ok, type BenchmarkTrainingReport, type Result } from '@maou/bench-domain';

/** Reads a `benchmark-training --output-json` file, checking that it is one. @public */
export const readTrainingReport = async (path: string): Promise<Result<BenchmarkTrainingReport, string>> => {
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
  if (!r || r.command !== 'benchmark-training') return err(`${path}: field 'command' is not 'benchmark-training'; pass files written by --output-json`);
  if (r.schema_version !== REPORT_SCHEMA_VERSION) return err(`${path}: field 'schema_version' is ${String(r.schema_version)}, expected ${REPORT_SCHEMA_VERSION}`);
  if (!Array.isArray(r.batches) || r.batches.some((b) => typeof b?.wallMs !== 'number' || typeof b?.warmup !== 'boolean')) {
    return err(`${path}: field 'batches' must list batches with wallMs and warmup`);
  }
  if (!r.environment || !r.config || !r.training_metrics || !r.model) return err(`${path}: missing environment, config, model or training_metrics`);
  return ok(r as BenchmarkTrainingReport);
};
