import type { BenchmarkDataloaderOutput } from '@maou/bench-use-cases';
import type {
  BatchStudyReport,
  BenchmarkCompareReport,
  BenchmarkTrainingReport,
  Result,
  TuneReport,
} from '@maou/bench-domain';
import { batchStudyReportPage } from './batch-study-report-page';
import { writeReportFile, type ReportWriteError, type WrittenReport } from './atomic-write';
import { compareReportPage } from './compare-report-page';
import { dataloaderReportPage } from './dataloader-report-page';
import { renderReportPage } from './render-report-page';
import { trainingReportPage } from './training-report-page';
import { tuneReportPage } from './tune-report-page';

/** Writes the `benchmark-training` HTML report (self-contained, atomic). @public */
export const writeTrainingHtmlReport = (
  report: BenchmarkTrainingReport,
  path: string,
): Promise<Result<WrittenReport, ReportWriteError>> =>
  writeReportFile(path, renderReportPage(trainingReportPage(report)));

/** Writes the `benchmark-dataloader` HTML report (self-contained, atomic). @public */
export const writeDataloaderHtmlReport = (
  result: BenchmarkDataloaderOutput,
  path: string,
): Promise<Result<WrittenReport, ReportWriteError>> =>
  writeReportFile(path, renderReportPage(dataloaderReportPage(result)));

/** Writes the `benchmark-compare` HTML report (self-contained, atomic). @public */
export const writeCompareHtmlReport = (
  result: BenchmarkCompareReport,
  path: string,
): Promise<Result<WrittenReport, ReportWriteError>> =>
  writeReportFile(path, renderReportPage(compareReportPage(result)));

/** Writes the HTML report of a `benchmark-training` batch study (self-contained, atomic). @public */
export const writeBatchStudyHtmlReport = (
  report: BatchStudyReport,
  path: string,
): Promise<Result<WrittenReport, ReportWriteError>> =>
  writeReportFile(path, renderReportPage(batchStudyReportPage(report)));

/** Writes the `benchmark-tune` HTML report (self-contained, atomic). @public */
export const writeTuneHtmlReport = (
  report: TuneReport,
  path: string,
): Promise<Result<WrittenReport, ReportWriteError>> => writeReportFile(path, renderReportPage(tuneReportPage(report)));
