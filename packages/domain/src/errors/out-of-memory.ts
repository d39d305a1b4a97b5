/**
 * Whether an error's text says memory ran out: the JavaScript heap or an ArrayBuffer, a worker's heap, the wasm heap
 * (which names the tensor it had no room for) or GPU memory.
 * @public
 */
export const isOutOfMemoryMessage = (text: string): boolean =>
  /out of (gpu )?memory|allocation failed|ERR_WORKER_OUT_OF_MEMORY|Array buffer allocation|heap .*has no room for/i.test(
    text,
  );
