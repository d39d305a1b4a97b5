import type { DataLoaderConfig, LaterDecision } from '@maou/bench-domain';
import type { CalibrateLoaderOutput, CalibrationChoice } from './calibrate-loader.input';

/**
 * What a calibration changed of the plan's loader settings, as decisions with their reason: the workers it chose,
 * and a batch it halved after running out of memory (now or in the run that stored the record it reused).
 * @public
 */
export const calibrationDecisions = (
  planned: Pick<DataLoaderConfig, 'batchSize' | 'workers'>,
  chosen: CalibrationChoice & { readonly origin: CalibrateLoaderOutput['origin'] },
): LaterDecision[] => {
  const source = chosen.origin === 'cache' ? 'the stored calibration record' : 'the loader calibration';
  return [
    ...(chosen.workers !== planned.workers
      ? [
          {
            setting: 'workers' as const,
            value: chosen.workers,
            origin: 'calibration' as const,
            reason: `${source} chose ${chosen.workers} over the plan's ${planned.workers} (the fastest setting measured)`,
          },
        ]
      : []),
    ...(chosen.batchSize !== planned.batchSize
      ? [
          {
            setting: 'batch_size' as const,
            value: chosen.batchSize,
            origin: 'out-of-memory' as const,
            reason: `${source} ran out of memory at batch ${planned.batchSize} and halved it to ${chosen.batchSize}`,
          },
        ]
      : []),
  ];
};
