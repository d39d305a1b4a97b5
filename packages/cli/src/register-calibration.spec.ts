import 'reflect-metadata';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { container } from 'tsyringe';
import { TOKENS, type CalibrationStorePort } from '@maou/bench-app';
import { MemoryLogger } from '@maou/bench-app/testing';
import { registerCalibration } from './register-calibration';

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
