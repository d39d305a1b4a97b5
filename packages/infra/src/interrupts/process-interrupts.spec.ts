import { EventEmitter } from 'node:events';
import { ProcessInterrupts, type InterruptSignal, type SignalProcess } from './process-interrupts';

// A process whose signals are emitted by hand; exits and re-raises are recorded instead of happening.
const fakeProcess = () => {
  const events = new EventEmitter();
  const exits: number[] = [];
  const raised: InterruptSignal[] = [];
  const proc: SignalProcess = {
    on: (s, l) => void events.on(s, l),
    removeListener: (s, l) => void events.removeListener(s, l),
    listenerCount: (s) => events.listenerCount(s),
    exit: (code) => void exits.push(code),
    raise: (s) => void raised.push(s),
  };
  return {
    proc,
    exits,
    raised,
    emit: (s: InterruptSignal) => events.emit(s, s),
    count: (s: InterruptSignal) => events.listenerCount(s),
  };
};
const settle = () => new Promise((r) => setImmediate(r));
const loader = (closed: string[], name: string) => ({ close: async () => void closed.push(name) });

describe('ProcessInterrupts', () => {
  it('given a process that never asked for signals (code importing the packages), then a command and a loader add no listener', () => {
    const p = fakeProcess();
    const interrupts = new ProcessInterrupts(p.proc, false);
    interrupts.closeOnInterrupt(loader([], 'a'));
    const watch = interrupts.watch('benchmark-training', () => undefined);
    watch.markRunning();
    expect([p.count('SIGHUP'), p.count('SIGINT'), p.count('SIGTERM')]).toEqual([0, 0, 0]);
    interrupts.listen();
    expect([p.count('SIGHUP'), p.count('SIGINT'), p.count('SIGTERM')]).toEqual([1, 1, 1]);
    watch.dispose();
  });

  it('given open loaders and no command, when SIGINT arrives, then each is closed once and the signal is raised again', async () => {
    const p = fakeProcess();
    const interrupts = new ProcessInterrupts(p.proc);
    const closed: string[] = [];
    interrupts.closeOnInterrupt(loader(closed, 'a'));
    interrupts.closeOnInterrupt(loader(closed, 'b'));
    // Ctrl-C only: an application's own SIGTERM handling is left alone.
    expect([p.count('SIGINT'), p.count('SIGTERM')]).toEqual([1, 0]);
    p.emit('SIGINT');
    await settle();
    expect({ closed: closed.sort(), raised: p.raised, exits: p.exits, listening: p.count('SIGINT') }).toEqual({
      closed: ['a', 'b'],
      raised: ['SIGINT'],
      exits: [],
      listening: 0,
    });
  });

  it('given every loader released and the command disposed, then no listener is left behind', () => {
    const p = fakeProcess();
    const interrupts = new ProcessInterrupts(p.proc);
    const a = loader([], 'a');
    interrupts.closeOnInterrupt(a);
    const watch = interrupts.watch('benchmark-training', () => undefined);
    expect([p.count('SIGINT'), p.count('SIGTERM')]).toEqual([1, 1]);
    interrupts.release(a);
    watch.dispose();
    expect([p.count('SIGINT'), p.count('SIGTERM')]).toEqual([0, 0]);
  });

  it('given the binary starting up (listening, no command yet), when SIGINT arrives, then it is held for the command, which answers it as before its first batch', async () => {
    const p = fakeProcess();
    const interrupts = new ProcessInterrupts(p.proc, false);
    interrupts.listen();
    expect([p.count('SIGHUP'), p.count('SIGINT'), p.count('SIGTERM')]).toEqual([1, 1, 1]);
    p.emit('SIGINT');
    expect({ exits: p.exits, raised: p.raised }).toEqual({ exits: [], raised: [] });
    const written: InterruptSignal[] = [];
    interrupts.watch('benchmark-training', (reason) => void written.push(reason));
    await settle();
    expect({ written, exits: p.exits }).toEqual({ written: ['SIGINT'], exits: [130] });
  });

  it('given a signal held at start-up and no command that watches, then ending start-up gives it its default action', async () => {
    const p = fakeProcess();
    const interrupts = new ProcessInterrupts(p.proc, false);
    interrupts.listen();
    p.emit('SIGTERM');
    await interrupts.endStartup();
    expect({ raised: p.raised, exits: p.exits, listening: p.count('SIGTERM') }).toEqual({
      raised: ['SIGTERM'],
      exits: [],
      listening: 0,
    });
  });

  it('given start-up with no signal, then ending it leaves no listener and raises nothing; a second signal while held exits at once', async () => {
    const p = fakeProcess();
    const quiet = new ProcessInterrupts(p.proc, false);
    quiet.listen();
    await quiet.endStartup();
    expect({ raised: p.raised, counts: [p.count('SIGINT'), p.count('SIGTERM')] }).toEqual({
      raised: [],
      counts: [0, 0],
    });
    const q = fakeProcess();
    const twice = new ProcessInterrupts(q.proc, false);
    twice.listen();
    q.emit('SIGINT');
    q.emit('SIGINT');
    expect(q.exits).toEqual([130]);
  });

  it('given a command before its first batch, when SIGTERM arrives, then it writes what it can and exits 143 at once', () => {
    const p = fakeProcess();
    const written: InterruptSignal[] = [];
    new ProcessInterrupts(p.proc).watch('benchmark-dataloader', (reason) => void written.push(reason));
    p.emit('SIGTERM');
    expect({ written, exits: p.exits }).toEqual({ written: ['SIGTERM'], exits: [143] });
  });

  it('given a running command, then the first SIGINT asks it to stop (loaders left to it), and a second exits 130 at once', () => {
    const p = fakeProcess();
    const interrupts = new ProcessInterrupts(p.proc);
    const closed: string[] = [];
    interrupts.closeOnInterrupt(loader(closed, 'a'));
    const watch = interrupts.watch('benchmark-training', () => undefined);
    watch.markRunning();
    const stderr = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
    p.emit('SIGINT');
    stderr.mockRestore();
    expect({ aborted: watch.aborted, code: watch.exitCode(), exits: p.exits, closed, raised: p.raised }).toEqual({
      aborted: true,
      code: 130,
      exits: [],
      closed: [],
      raised: [],
    });
    // Disposed after a signal, the command keeps the signals: a late one still exits at once, nothing re-raises.
    watch.dispose();
    p.emit('SIGTERM');
    expect({ exits: p.exits, raised: p.raised }).toEqual({ exits: [130], raised: [] });
  });

  it('given a running command, when SIGHUP arrives (the terminal closed), then it stops like SIGTERM and exits 129', () => {
    const p = fakeProcess();
    const written: InterruptSignal[] = [];
    const watch = new ProcessInterrupts(p.proc).watch('benchmark-training', (r) => void written.push(r));
    expect(p.count('SIGHUP')).toBe(1);
    watch.markRunning();
    const stderr = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
    p.emit('SIGHUP');
    expect({ aborted: watch.aborted, code: watch.exitCode(), exits: p.exits }).toEqual({
      aborted: true,
      code: 129,
      exits: [],
    });
    p.emit('SIGHUP');
    stderr.mockRestore();
    expect({ written, exits: p.exits }).toEqual({ written: ['SIGHUP'], exits: [129] });
  });

  it('given the last batch done, then a signal only notes it, and a second exits at once writing nothing over the report', () => {
    const p = fakeProcess();
    const written: InterruptSignal[] = [];
    const watch = new ProcessInterrupts(p.proc).watch('benchmark-training', (r) => void written.push(r));
    watch.markRunning();
    watch.lastBatchDone();
    const lines: string[] = [];
    const stderr = jest.spyOn(process.stderr, 'write').mockImplementation((c) => lines.push(String(c)) > 0);
    p.emit('SIGTERM');
    expect({ aborted: watch.aborted, exits: p.exits, written }).toEqual({ aborted: true, exits: [], written: [] });
    p.emit('SIGINT');
    stderr.mockRestore();
    expect({ exits: p.exits, written }).toEqual({ exits: [130], written: [] });
    expect(lines).toEqual([
      'maou benchmark-training: SIGTERM came after the last batch; the report is complete and is written in full (exit 0; send it again to stop at once, dropping what is not yet written)\n',
      'maou benchmark-training: SIGINT again; stopping at once, a report not yet written is dropped\n',
    ]);
  });

  it('given a signal during the last batch, then finishing it cancels the grace-period exit that would write a stub', () => {
    jest.useFakeTimers();
    try {
      const p = fakeProcess();
      const written: InterruptSignal[] = [];
      const watch = new ProcessInterrupts(p.proc).watch('benchmark-training', (r) => void written.push(r));
      watch.markRunning();
      const stderr = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
      p.emit('SIGTERM');
      watch.lastBatchDone();
      jest.advanceTimersByTime(60_000);
      stderr.mockRestore();
      expect({ exits: p.exits, written }).toEqual({ exits: [], written: [] });
    } finally {
      jest.useRealTimers();
    }
  });
});
