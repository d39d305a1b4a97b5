import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

// npm nests a tfjs-core copy under each package of ours where the host has another version; each copy's load used to
// print tfjs's "Platform node has already been set" warning. A second copy is made here as a real one is: the same
// file loaded again into a fresh require cache, in plain node on the built packages (jest's module registry would
// neither share Node's cache nor load the dist entries a service loads).
const PACKAGES = join(__dirname, '..', '..');
const ENGINE = join(PACKAGES, 'engine');

/**
 * A process that loads a host's tfjs-core (PROD set to `prod` unless undefined), drops it from the require cache when
 * `hostFirst`, requires `entry` (a built file), runs `then` (where `drop()` drops tfjs-core from the cache again) and
 * prints the shared engine's flags: what else it printed, and those flags.
 */
const run = (entry: string, o: { hostFirst?: boolean; prod?: boolean; then?: string } = {}) => {
  const script = `
    const drop = () => { for (const k of Object.keys(require.cache)) if (k.includes('/@tensorflow/tfjs-core/')) delete require.cache[k]; };
    const [entry, hostFirst, prod] = process.argv.slice(1);
    if (hostFirst === 'true') {
      const tf = require(require.resolve('@tensorflow/tfjs-core', { paths: [${JSON.stringify(ENGINE)}] }));
      if (prod !== 'undefined') tf.env().set('PROD', prod === 'true');
      drop();
    }
    require(entry);
    Promise.resolve((() => { ${o.then ?? ''} })()).then(() => console.log(JSON.stringify(globalThis._tfengine.ENV.getFlags())));
  `;
  const r = spawnSync(
    process.execPath,
    ['-e', script, join(PACKAGES, entry), String(o.hostFirst ?? true), String(o.prod)],
    {
      encoding: 'utf8',
      env: { ...process.env, NODE_PATH: '' }, // pnpm's scripts set it to the hoisted store, which real installs lack
    },
  );
  const out = r.stdout.trim().split('\n');
  const printed = [...out.slice(0, -1), ...r.stderr.split('\n')].filter((line) => line !== '');
  return { status: r.status, printed, flags: JSON.parse(out.at(-1) || '{}') as object };
};

describe('our tfjs-core copies load without tfjs platform warning (built packages, plain node)', () => {
  it.each([
    'library/dist/index.js',
    'library/dist/commands/index.js',
    'library/dist/testing/index.js',
    'cli/dist/index.js',
  ])(
    'given a host tfjs-core loaded first, when %s is required, then nothing is printed and PROD stays unset',
    (entry) => {
      const r = run(entry);
      expect({ status: r.status, printed: r.printed, prod: 'PROD' in r.flags }).toEqual({
        status: 0,
        printed: [],
        prod: false,
      });
    },
  );

  it.each([false, true])('given the host set PROD to %s, then the load leaves it so', (prod) => {
    const r = run('library/dist/index.js', { prod });
    expect({ printed: r.printed, flags: r.flags }).toEqual({
      printed: [],
      flags: expect.objectContaining({ PROD: prod }),
    });
  });

  it('given no other tfjs-core, when @maou/bench-app is required, then no flag of tfjs is touched', () => {
    const r = run('library/dist/index.js', { hostFirst: false });
    expect({ printed: r.printed, prod: 'PROD' in r.flags }).toEqual({ printed: [], prod: false });
  });

  it('given a backend that brings another tfjs-core, when compute loads it later, then nothing is printed', () => {
    const optional = join(PACKAGES, 'compute/dist/backends/optional-module.js');
    const r = run('library/dist/index.js', {
      then: `drop(); return require(${JSON.stringify(optional)}).requireModule('@tensorflow/tfjs-backend-cpu');`,
    });
    expect({ status: r.status, printed: r.printed, prod: 'PROD' in r.flags }).toEqual({
      status: 0,
      printed: [],
      prod: false,
    });
  });
});
