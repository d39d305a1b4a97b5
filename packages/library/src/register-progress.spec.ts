import 'reflect-metadata';
import { useCaseContainer as container } from '@maou/bench-use-cases';
import { TOKENS, type ProgressPort } from '@maou/bench-use-cases';
import { FakeClock } from '@maou/bench-use-cases/testing';
import { StderrProgressAdapter } from '@maou/bench-infra';
import { registerProgress } from './register-progress';

describe('registerProgress', () => {
  it('given a clock in the container, then the progress port resolves to the stderr adapter', () => {
    const child = container.createChildContainer();
    child.registerInstance(TOKENS.Clock, new FakeClock());
    registerProgress(child, { logLevel: 'warn' });
    expect(child.resolve<ProgressPort>(TOKENS.Progress)).toBeInstanceOf(StderrProgressAdapter);
  });

  it('given --log-level silent, then starting a task writes nothing to stderr', () => {
    const child = container.createChildContainer();
    child.registerInstance(TOKENS.Clock, new FakeClock());
    registerProgress(child, { logLevel: 'silent' });
    const write = jest.spyOn(process.stderr, 'write');
    const task = child.resolve<ProgressPort>(TOKENS.Progress).start({ label: 'x', total: 2, unit: 'batches' });
    task.advance();
    task.finish();
    expect(write).not.toHaveBeenCalled();
    write.mockRestore();
  });
});
