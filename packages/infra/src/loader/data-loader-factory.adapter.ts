import type { DataLoaderFactoryPort, DataLoaderPort, DataSourcePort } from '@maou/bench-use-cases';
import type { DataLoaderConfig } from '@maou/bench-domain';
import { DataLoaderAdapter, type DataLoaderOptions } from './data-loader.adapter';

/** Builds worker-thread data loaders over any source whose shards are local files. @public */
export class DataLoaderFactoryAdapter implements DataLoaderFactoryPort {
  constructor(private readonly options: DataLoaderOptions = {}) {}

  create(source: DataSourcePort, config: DataLoaderConfig): Promise<DataLoaderPort> {
    return DataLoaderAdapter.create(source, config, this.options);
  }
}
