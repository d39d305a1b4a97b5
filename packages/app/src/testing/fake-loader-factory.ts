import type { DataLoaderConfig, HostBatch } from '@maou/bench-domain';
import type { FakeClock } from './fake-clock';
import type { DataLoaderFactoryPort, DataLoaderPort, Split } from '../ports/data-loader.port';

/** Test double: a loader whose batches take `msPerBatch(config)` on a fake clock. @public */
export class FakeLoaderFactory implements DataLoaderFactoryPort {
  readonly created: DataLoaderConfig[] = [];
  constructor(
    private readonly clock: FakeClock,
    private readonly msPerBatch: (c: DataLoaderConfig) => number,
    private readonly failIf: (c: DataLoaderConfig) => Error | null = () => null,
    private readonly batchesPerPass = 50,
  ) {}

  async create(_source: unknown, config: DataLoaderConfig): Promise<DataLoaderPort> {
    this.created.push(config);
    const { clock, msPerBatch, batchesPerPass } = this;
    const failure = this.failIf(config);
    const batch = (): HostBatch => ({
      stage: 3,
      size: config.batchSize,
      boardIds: new Int32Array(0),
      hands: new Float32Array(0),
      targets: { stage: 3, moveLabel: new Float32Array(0), resultValue: new Float32Array(0) },
    });
    return {
      batchesPerEpoch: { train: batchesPerPass, validation: 0 },
      samplesPerEpoch: { train: batchesPerPass * config.batchSize, validation: 0 },
      describe: () => ({ workers: config.workers }),
      async *iterate(_split: Split) {
        for (let i = 0; i < batchesPerPass; i++) {
          if (failure) throw failure;
          clock.advance(msPerBatch(config));
          yield batch();
        }
      },
      close: async () => undefined,
    };
  }
}
