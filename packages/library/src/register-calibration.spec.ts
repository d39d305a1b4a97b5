import 'reflect-metadata';
import { mkdtempSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { useCaseContainer as container } from '@maou/bench-use-cases';
import { TOKENS, type CalibrationStorePort } from '@maou/bench-use-cases';
import { MemoryLogger } from '@maou/bench-use-cases/testing';
import { defaultCalibrationFile, registerCalibration } from './register-calibration';
import { benchmarkTrainingTable } from './commands/benchmark-training';
import { shippedPlugIns } from './plug-ins';

describe('registerCalibration', () => {
  it('given a container with a logger, when registered, then the store persists to the given JSON file', async () => {
    const child = container.createChildContainer();
    child.registerInstance(TOKENS.Logger, new MemoryLogger());
    const file = join(mkdtempSync(join(tmpdir(), 'maou-reg-cal-')), 'c.json');
    registerCalibration(child, file);
    await child.resolve<CalibrationStorePort>(TOKENS.CalibrationStore).save('k', { workers: 1 });
    registerCalibration(child, file);
    expect(await child.resolve<CalibrationStorePort>(TOKENS.CalibrationStore).load('k')).toEqual({ workers: 1 });
  });
});

describe('--calibration-file without the flag', () => {
  const cache = process.env.MAOU_BENCH_CACHE;
  afterEach(() => {
    if (cache === undefined) delete process.env.MAOU_BENCH_CACHE;
    else process.env.MAOU_BENCH_CACHE = cache;
  });

  it('given no MAOU_BENCH_CACHE, then the --calibration-file help (the option table) names the file the store uses', () => {
    delete process.env.MAOU_BENCH_CACHE;
    const used = defaultCalibrationFile();
    expect(used.startsWith(homedir())).toBe(true);
    const help = benchmarkTrainingTable(shippedPlugIns())['calibration-file'].describe;
    expect(help).toContain(`(default ${used.replace(homedir(), '~')},`);
  });

  it('given MAOU_BENCH_CACHE, then calibration.json in it, as --help says', () => {
    process.env.MAOU_BENCH_CACHE = '/somewhere/cache';
    expect(defaultCalibrationFile()).toBe(join('/somewhere/cache', 'calibration.json'));
  });
});
