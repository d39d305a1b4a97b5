import { EventEmitter } from 'node:events';
import { SigintShutdown } from './signal-shutdown';

describe('SigintShutdown', () => {
  it('given open loaders, when SIGINT arrives, then each is closed once and the signal is raised again', async () => {
    const signals = new EventEmitter();
    let raised = 0;
    const shutdown = new SigintShutdown(signals as never, () => raised++);
    const closed: string[] = [];
    const a = { close: async () => void closed.push('a') };
    const b = { close: async () => void closed.push('b') };
    shutdown.watch(a);
    shutdown.watch(b);
    expect(signals.listenerCount('SIGINT')).toBe(1);
    signals.emit('SIGINT');
    await new Promise((r) => setImmediate(r));
    expect(closed.sort()).toEqual(['a', 'b']);
    expect(raised).toBe(1);
  });

  it('given every loader released, when done, then no SIGINT listener is left behind', () => {
    const signals = new EventEmitter();
    const shutdown = new SigintShutdown(signals as never, () => undefined);
    const a = { close: async () => undefined };
    shutdown.watch(a);
    shutdown.release(a);
    expect(signals.listenerCount('SIGINT')).toBe(0);
  });
});
