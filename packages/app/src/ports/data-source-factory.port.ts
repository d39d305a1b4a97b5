import type { DataSourceSpec, Stage } from '@maou/bench-domain';
import type { DataSourcePort } from './data-source.port';

/** Opens the datasource a spec names (local files, sample data, S3, GCS, BigQuery). @public */
export interface DataSourceFactoryPort {
  open(spec: DataSourceSpec, stage: Stage, sampleRatio: number | null): Promise<DataSourcePort>;
}
