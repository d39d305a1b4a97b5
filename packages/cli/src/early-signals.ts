// Imported first by the binary. Loading the other modules takes a second or more with the event loop blocked, and a
// signal then would take its default action and kill the process before it could answer. With a listener in place
// Node queues the signal instead; the listener must stay until the binary's own handlers are added, since removing
// the last one drops a queued signal. It imports nothing, so it runs as soon as Node starts the binary.
const SIGNALS = ['SIGHUP', 'SIGINT', 'SIGTERM'] as const;
const queue = (): void => undefined;
for (const s of SIGNALS) process.on(s, queue);

/** Removes the placeholder listeners; call it after the binary's own handlers are added. */
export const stopQueueingSignals = (): void => {
  for (const s of SIGNALS) process.removeListener(s, queue);
};
