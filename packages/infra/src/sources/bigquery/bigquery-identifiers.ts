import type { ValidationIssue } from '@maou/bench-domain';

// Strict subsets of BigQuery's naming rules: these names are spliced into SQL as quoted identifiers,
// so anything outside the allow-list is refused rather than escaped.
const DATASET = /^[A-Za-z0-9_]{1,1024}$/;
const TABLE = /^[A-Za-z0-9_][A-Za-z0-9_-]{0,1023}$/;
const COLUMN = /^[A-Za-z_][A-Za-z0-9_]{0,299}$/;
/** A Google Cloud project id (with its domain, if any). @internal */
export const PROJECT = /^(?:[a-z][a-z0-9.-]{0,62}:)?[a-z][a-z0-9-]{4,28}[a-z0-9]$/;
const COLUMN_RULE = 'column name (a letter or underscore, then letters, digits, underscores)';

/** The names of a BigQuery source as given on the command line. @internal */
export interface BigQueryNames {
  readonly projectId?: string;
  readonly datasetId?: string;
  readonly tableName?: string;
  readonly clusteringKey?: string;
  readonly partitioningKeyDate?: string;
}

const check = (field: string, value: string | undefined, re: RegExp, rule: string): ValidationIssue[] =>
  value !== undefined && !re.test(value) ? [{ field, message: `${JSON.stringify(value)} is not a valid ${rule}` }] : [];

/** Checks every identifier of a BigQuery source against its allow-list; issues name the flag. @internal */
export const checkBigQueryNames = (raw: BigQueryNames): ValidationIssue[] => [
  ...check('--input-dataset-id', raw.datasetId, DATASET, 'dataset id (letters, digits, underscores)'),
  ...check('--input-table-name', raw.tableName, TABLE, 'table name (letters, digits, underscores, dashes)'),
  ...check('--input-clustering-key', raw.clusteringKey, COLUMN, COLUMN_RULE),
  ...check('--input-partitioning-key-date', raw.partitioningKeyDate, COLUMN, COLUMN_RULE),
  ...check('projectId', raw.projectId, PROJECT, 'Google Cloud project id'),
];

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

/** Checks every identifier of a BigQuery source again when it opens (its parser checked the flags already). @public */
export const validateBigQueryRef = (
  raw: RawRef,
): { ok: true; value: BigQueryTableRef } | { ok: false; error: ValidationIssue[] } => {
  const issues = checkBigQueryNames(raw);
  if (issues.length > 0) return { ok: false, error: issues };
  return {
    ok: true,
    value: {
      projectId: raw.projectId ?? null,
      datasetId: raw.datasetId,
      tableName: raw.tableName,
      clusteringKey: raw.clusteringKey ?? null,
      partitioningKeyDate: raw.partitioningKeyDate ?? null,
    },
  };
};

/** `` `project.dataset.table` `` from validated parts; backticks cannot occur in them. @internal */
export const quotedTable = (project: string, ref: BigQueryTableRef): string =>
  `\`${project}.${ref.datasetId}.${ref.tableName}\``;

/** A validated column name, quoted. @internal */
export const quotedColumn = (column: string): string => `\`${column}\``;
