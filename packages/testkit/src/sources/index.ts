export * from './cloud-fixtures';
export * from './fake-bigquery-server';
export * from './fake-gcs-server';
export * from './fault-campaign';
export * from './fault-proxy';
export * from './s3rver-harness';
