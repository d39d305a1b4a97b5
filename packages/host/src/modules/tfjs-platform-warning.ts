import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

/** The part of tfjs-core's shared engine (`globalThis._tfengine`, one per process for every copy) this reads. */
interface TfjsGlobal {
  _tfengine?: { ENV?: { getFlags?: () => Record<string, unknown> } };
}

/**
 * Runs `load`, a require that may load a tfjs-core copy, without tfjs's "Platform node has already been set" warning.
 * npm nests a copy under each package of ours where the host has another tfjs-core version, and each copy registers
 * its platform on the engine the first one made, warning unless the engine's IS_TEST or PROD flag is on. Where an
 * engine exists, PROD is on only while `load` runs and is then put back as it was (unset again where it was unset):
 * nothing of the host's runs meanwhile. Where none exists, `load` runs as it is and no flag is touched.
 * @public
 */
export function withoutPlatformWarning<T>(load: () => T): T {
  const flags = (globalThis as TfjsGlobal)._tfengine?.ENV?.getFlags?.();
  if (flags === undefined) return load();
  const had = Object.hasOwn(flags, 'PROD');
  const before = flags.PROD;
  flags.PROD = true;
  try {
    return load();
  } finally {
    if (had) flags.PROD = before;
    else delete flags.PROD;
  }
}

const TFJS_CORE = '@tensorflow/tfjs-core';
const dependencies = (manifest: string): string[] =>
  Object.keys((JSON.parse(readFileSync(manifest, 'utf8')) as { dependencies?: object }).dependencies ?? {});

/**
 * Loads the tfjs-core copy of the package whose package.json is `manifest` and of each package of ours it depends on
 * (`@maou/*`) that has one, each {@link withoutPlatformWarning}. An entry point (a package's index, a worker's
 * script) calls it before any other module of ours needs tfjs-core: npm nests a copy under each such package where the
 * host has its own tfjs-core of another version, and in a global install. Under pnpm they are one copy, loaded once.
 * @public
 */
export function loadTfjsCopies(manifest: string): void {
  const ours = dependencies(manifest).filter((name) => name.startsWith('@maou/'));
  const manifests = [manifest, ...ours.map((name) => createRequire(manifest).resolve(`${name}/package.json`))];
  for (const m of manifests.filter((m) => dependencies(m).includes(TFJS_CORE)))
    withoutPlatformWarning(() => createRequire(m)(TFJS_CORE));
}
