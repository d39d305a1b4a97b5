import type { ValidationIssue } from '../errors/validation-error';

// Strict subsets of BigQuery's naming rules: these names are spliced into SQL as quoted identifiers,
// so anything outside the allow-list is refused rather than escaped.
const DATASET = /^[A-Za-z0-9_]{1,1024}$/;
const TABLE = /^[A-Za-z0-9_][A-Za-z0-9_-]{0,1023}$/;
const COLUMN = /^[A-Za-z_][A-Za-z0-9_]{0,299}$/;
const PROJECT = /^(?:[a-z][a-z0-9.-]{0,62}:)?[a-z][a-z0-9-]{4,28}[a-z0-9]$/;
const COLUMN_RULE = 'column name (a letter or underscore, then letters, digits, underscores)';

/** The names of a BigQuery source as given on the command line. @public */
export interface BigQueryNames {
  readonly projectId?: string;
  readonly datasetId?: string;
  readonly tableName?: string;
  readonly clusteringKey?: string;
  readonly partitioningKeyDate?: string;
}

const check = (field: string, value: string | undefined, re: RegExp, rule: string): ValidationIssue[] =>
  value !== undefined && !re.test(value) ? [{ field, message: `${JSON.stringify(value)} is not a valid ${rule}` }] : [];

/** Checks every identifier of a BigQuery source against its allow-list; issues name the flag. @public */
export const checkBigQueryNames = (raw: BigQueryNames): ValidationIssue[] => [
  ...check('--input-dataset-id', raw.datasetId, DATASET, 'dataset id (letters, digits, underscores)'),
  ...check('--input-table-name', raw.tableName, TABLE, 'table name (letters, digits, underscores, dashes)'),
  ...check('--input-clustering-key', raw.clusteringKey, COLUMN, COLUMN_RULE),
  ...check('--input-partitioning-key-date', raw.partitioningKeyDate, COLUMN, COLUMN_RULE),
  ...check('projectId', raw.projectId, PROJECT, 'Google Cloud project id'),
];
