import { checkBigQueryNames, type ValidationIssue } from '@maou/bench-domain';

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

/** Checks every identifier of a BigQuery source (the interface layer checked the flags already). @public */
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
