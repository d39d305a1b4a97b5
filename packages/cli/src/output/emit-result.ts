import { toJson } from '@maou/bench-infra';

/** Where results go; `process.stdout` fits. */
export interface ResultStream {
  write(chunk: string): boolean;
}

/**
 * Writes a command's result to stdout: the JSON payload with `--json`, the human summary otherwise.
 * Nothing else ever goes to stdout, so `maou … --json | jq` always sees one JSON document.
 */
export const emitResult = (
  payload: unknown,
  text: string,
  options: { readonly json?: boolean },
  stdout: ResultStream = process.stdout,
): void => {
  const out = options.json ? toJson(payload) : text;
  stdout.write(out.endsWith('\n') ? out : `${out}\n`);
};
