import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** This package's version, which a report's environment names (the same file from src/ under tests and from dist/). */
export const packageVersion = (): string =>
  (JSON.parse(readFileSync(join(__dirname, '..', 'package.json'), 'utf8')) as { version: string }).version;
