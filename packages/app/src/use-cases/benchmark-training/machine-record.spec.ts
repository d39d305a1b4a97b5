import { runSeries, type BatchTiming } from '@maou/bench-domain';
import { MemoryCalibrationStore } from '../../testing/memory-calibration-store';
import { MemoryLogger } from '../../testing/memory-logger';
import { TEST_HOST } from '../../testing/training-use-case';
import { MachineRecord } from './machine-record';

const backend = { name: 'cpu', version: 't', threads: 2, device: 'host', notes: [] };
/** 3,000 batches of 10 ms ± 10 % every 100 batches: enough for 1 s windows and the 100- and 200-batch falls. */
const timings: BatchTiming[] = Array.from({ length: 3000 }, (_, i) => ({
  index: i,
  warmup: i < 5,
  samples: 32,
  startMs: 0,
  wallMs: 10 * (Math.floor(i / 100) % 2 ? 1.1 : 0.9),
  phases: { dataWait: 0, hostToDevice: 0, forward: 0, loss: 0, backward: 0, optimizer: 0, other: 0 },
  loss: 1,
  numTensors: 0,
}));

describe('MachineRecord', () => {
  it('given two runs that opened the record before either finished, then both runs count in it', async () => {
    const store = new MemoryCalibrationStore();
    const logger = new MemoryLogger();
    const [a, b] = await Promise.all([
      MachineRecord.open(store, logger, TEST_HOST, backend),
      MachineRecord.open(store, logger, TEST_HOST, backend),
    ]);
    expect(a.kept).toBeNull();
    await a.add(runSeries(timings), 5, 5);
    await b.add(runSeries(timings), 5, 5);
    const reopened = await MachineRecord.open(store, logger, TEST_HOST, backend);
    expect(reopened.kept!.wander.runs).toBe(2);
    expect(reopened.kept!.fall.cuts.find((c) => c.batches === 100)!.weight).toBeCloseTo(1.9, 12);
    expect(logger.lines.filter((l) => l.level === 'warn')).toEqual([]);
  });

  it('given a store that fails to write, then the run goes on and the warning names the record', async () => {
    const store = new MemoryCalibrationStore();
    store.update = () => Promise.reject(new Error('disk full'));
    const logger = new MemoryLogger();
    const record = await MachineRecord.open(store, logger, TEST_HOST, backend);
    await expect(record.add(runSeries(timings), 5, 5)).resolves.toBeUndefined();
    expect(logger.lines.find((l) => l.level === 'warn')).toMatchObject({ msg: 'machine_record_not_saved' });
  });
});
