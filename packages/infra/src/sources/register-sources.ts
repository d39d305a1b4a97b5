import { bigquerySource } from './bigquery/bigquery.source';
import { gcsSource } from './gcs/gcs.source';
import { localSource } from './local/local.source';
import { s3Source } from './s3/s3.source';
import { sampleSource } from './sample/sample.source';
import { SourceRegistry } from './source-registry';

/**
 * The registry with every datasource this package ships, one line each. A new source is a folder exporting a
 * `SourceDefinition` (flags, parser, capabilities, factory), and a line here; a bucket-style store's definition is
 * `objectStoreSource({ kind, help, label, flag, sdkModule, connect })` over its `ObjectStore`.
 * @public
 */
export const createSourceRegistry = (): SourceRegistry =>
  new SourceRegistry()
    .register(localSource)
    .register(sampleSource)
    .register(s3Source)
    .register(gcsSource)
    .register(bigquerySource);
