import type { ValidationIssue } from '@maou/bench-domain';

// Strict subsets of BigQuery's naming rules: these names are spliced into SQL as quoted identifiers,
// so anything outside the allow-list is refused rather than escaped.
const DATASET = /^[A-Za-z0-9_]{1,1024}$/;
const TABLE = /^[A-Za-z0-9_][A-Za-z0-9_-]{0,1023}$/;
const COLUMN = /^[A-Za-z_][A-Za-z0-9_]{0,299}$/;
const PROJECT = /^(?:[a-z][a-z0-9.-]{0,62}:)?[a-z][a-z0-9-]{4,28}[a-z0-9]$/;

/** A table reference whose parts passed the allow-lists. @public */
export interface BigQueryTableRef {
  readonly projectId: string | null;
  readonly datasetId: string;
  readonly tableName: string;
  readonly clusteringKey: string | null;
  readonly partitioningKeyDate: string | null;
}

interface RawRef {
  readonly projectId?: string;
  readonly datasetId: string;
  readonly tableName: string;
  readonly clusteringKey?: string;
  readonly partitioningKeyDate?: string;
}

const check = (issues: ValidationIssue[], field: string, value: string | undefined, re: RegExp, rule: string): void => {
  if (value !== undefined && !re.test(value)) issues.push({ field, message: `${JSON.stringify(value)} is not a valid ${rule}` });
};

/** Checks every identifier of a BigQuery source against its allow-list; issues name the flag. @public */
export const validateBigQueryRef = (raw: RawRef): { ok: true; value: BigQueryTableRef } | { ok: false; error: ValidationIssue[] } => {
  const issues: ValidationIssue[] = [];
  check(issues, '--input-dataset-id', raw.datasetId, DATASET, 'dataset id (letters, digits, underscores)');
  check(issues, '--input-table-name', raw.tableName, TABLE, 'table name (letters, digits, underscores, dashes)');
  check(issues, '--input-clustering-key', raw.clusteringKey, COLUMN, 'column name (a letter or underscore, then letters, digits, underscores)');
  check(issues, '--input-partitioning-key-date', raw.partitioningKeyDate, COLUMN, 'column name (a letter or underscore, then letters, digits, underscores)');
  check(issues, 'projectId', raw.projectId, PROJECT, 'Google Cloud project id');
  if (issues.length > 0) return { ok: false, error: issues };
  return {
    ok: true,
    value: {
      projectId: raw.projectId ?? null, datasetId: raw.datasetId, tableName: raw.tableName,
      clusteringKey: raw.clusteringKey ?? null, partitioningKeyDate: raw.partitioningKeyDate ?? null,
    },
  };
};

/** `` `project.dataset.table` `` from validated parts; backticks cannot occur in them. @internal */
export const quotedTable = (project: string, ref: BigQueryTableRef): string => `\`${project}.${ref.datasetId}.${ref.tableName}\``;

/** A validated column name, quoted. @internal */
export const quotedColumn = (column: string): string => `\`${column}\``;
