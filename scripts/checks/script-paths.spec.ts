import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

// The bench and campaign scripts load built modules by path (ts-node does not follow the packages' exports), so a
// moved source file breaks them without any compile error. Each path must still name a source file.
const repo = join(__dirname, '..', '..');
const scripts = readdirSync(join(repo, 'scripts')).filter((f) => /\.(ts|cjs|js)$/.test(f));

const sourceOf = (built: string): string[] => {
  const src = built.replace('/dist/', '/src/').replace(/\.js$/, '');
  return [`${src}.ts`, src, join(src, 'index.ts')];
};

describe('paths the scripts load from the packages', () => {
  const refs = scripts.flatMap((file) =>
    [
      ...readFileSync(join(repo, 'scripts', file), 'utf8').matchAll(
        /packages\/[a-z-]+\/(?:dist|src)\/[A-Za-z0-9/_.-]+/g,
      ),
    ].map((m) => [file, m[0]] as const),
  );

  it('finds some', () => expect(refs.length).toBeGreaterThan(10));

  it.each(refs)('%s: %s names a source file', (_file, ref) => {
    expect(sourceOf(ref).some((p) => existsSync(join(repo, p)))).toBe(true);
  });
});
