import { spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, existsSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

// The layer rules are only worth something if they fire: plant forbidden imports in a scratch copy of the
// sources and expect dependency-cruiser and eslint to refuse them.
const root = resolve(__dirname, '../..');
const configs = ['.dependency-cruiser.cjs', 'tsconfig.base.json', 'tsconfig.depcruise.json', 'eslint.config.mjs', 'package.json'];

function scratchCopy(): string {
  const dir = mkdtempSync(join(tmpdir(), 'maou-layers-'));
  for (const f of configs) cpSync(join(root, f), join(dir, f));
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'));
  for (const pkg of readdirSync(join(root, 'packages'))) {
    const from = join(root, 'packages', pkg);
    if (!existsSync(join(from, 'src'))) continue;
    cpSync(join(from, 'src'), join(dir, 'packages', pkg, 'src'), { recursive: true });
    for (const f of ['package.json', 'tsconfig.json']) if (existsSync(join(from, f))) cpSync(join(from, f), join(dir, 'packages', pkg, f));
    if (existsSync(join(from, 'node_modules'))) symlinkSync(join(from, 'node_modules'), join(dir, 'packages', pkg, 'node_modules'));
  }
  return dir;
}

const run = (dir: string, bin: string, args: string[]) => {
  const r = spawnSync(join(root, 'node_modules/.bin', bin), args, { cwd: dir, encoding: 'utf8', timeout: 120_000 });
  return { status: r.status, out: `${r.stdout}${r.stderr}` };
};
const depcruise = (dir: string) => run(dir, 'depcruise', ['packages', '--config', '.dependency-cruiser.cjs', '--output-type', 'err']);
const plant = (dir: string, file: string, line: string) => appendFileSync(join(dir, file), `\n${line}\n`);

describe('layer rules', () => {
  let dir = '';
  beforeEach(() => { dir = scratchCopy(); });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('pass on the untouched copy (so a failure below is the planted import)', () => {
    const r = depcruise(dir);
    expect(r.out).toContain('no dependency violations');
    expect(r.status).toBe(0);
  }, 120_000);

  it.each([
    ['packages/infra/src/clock/system-clock.adapter.ts', "import '@maou/bench-interface';", 'infra-not-interface'],
    ['packages/domain/src/stats/summary.ts', "import '@maou/bench-app';", 'domain-is-pure'],
    ['packages/app/src/ports/clock.port.ts', "import '@maou/bench-infra';", 'app-only-domain'],
    ['packages/interface/src/index.ts', "import '@maou/bench-infra';", 'interface-not-infra'],
  ])('refuse %s importing across a layer (%s)', (file, line, rule) => {
    plant(dir, file, line);
    const r = depcruise(dir);
    expect(r.out).toContain(rule);
    expect(r.status).not.toBe(0);
  }, 120_000);

  it('refuse the tsyringe container outside the cli package', () => {
    const file = 'packages/infra/src/clock/system-clock.adapter.ts';
    plant(dir, file, "import { container } from 'tsyringe';\nexport const leaked = container;");
    const r = run(dir, 'eslint', [file]);
    expect(r.out).toContain('Only packages/cli wires adapters');
    expect(r.status).not.toBe(0);
  }, 120_000);
});
