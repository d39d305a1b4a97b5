/** Where results go; `process.stdout` fits. @public */
export interface ResultStream {
  write(chunk: string): boolean;
}

/** Pretty JSON with a trailing newline; NaN and infinities become null so `jq` can read it. @public */
export const jsonText = (payload: unknown): string =>
  `${JSON.stringify(payload, (_key, v: unknown) => (typeof v === 'number' && !Number.isFinite(v) ? null : v), 2)}\n`;

/**
 * Writes a command's result to stdout: the JSON payload with `--json`, the human summary otherwise.
 * Nothing else ever goes to stdout, so `maou … --json | jq` always sees one JSON document.
 * @public
 */
export const emitResult = <T>(
  payload: T,
  renderText: (payload: T) => string,
  options: { readonly json?: boolean },
  stdout: ResultStream = process.stdout,
): void => {
  const text = options.json ? jsonText(payload) : renderText(payload);
  stdout.write(text.endsWith('\n') ? text : `${text}\n`);
};
