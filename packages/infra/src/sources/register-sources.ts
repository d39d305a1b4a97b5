import { bigquerySource } from './bigquery/bigquery.source';
import { gcsSource } from './gcs/gcs.source';
import { localSource } from './local/local.source';
import { s3Source } from './s3/s3.source';
import { sampleSource } from './sample/sample.source';
import type { SourceContext } from './source-definition';
import { DataSourceRegistryAdapter } from './source-registry';

/**
 * The registry with every datasource this package ships, one line each. A new source is a folder under `sources/`
 * exporting a `SourceDefinition`, and a line here.
 * @public
 */
export const createSourceRegistry = (context: SourceContext): DataSourceRegistryAdapter =>
  new DataSourceRegistryAdapter(context)
    .register(localSource)
    .register(sampleSource)
    .register(s3Source)
    .register(gcsSource)
    .register(bigquerySource);
