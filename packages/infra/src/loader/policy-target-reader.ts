import { selectPolicyTarget, type PolicyTargetMode, type StageColumns } from '@maou/bench-domain';
import { DataFileError } from '../arrow/data-file-error';

/**
 * A shard's columns with the Stage 3 policy target of `mode` in `moveLabel` (no mode: as read). A file without the
 * column the mode needs is an error naming file, column and mode, where maou would train on zeros.
 * @internal
 */
export const applyPolicyTarget = (
  path: string,
  columns: StageColumns,
  mode: PolicyTargetMode | undefined,
): StageColumns => {
  if (mode === undefined) return columns;
  const selected = selectPolicyTarget(columns, mode);
  if (selected.ok) return selected.value;
  throw new DataFileError(
    { path, column: selected.error },
    `missing column, which --policy-target-mode ${mode} needs (maou HEAD's Stage 3 files have it; ` +
      'train files without it with --policy-target-mode move-label)',
  );
};
