import { spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, existsSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

// The layer rules are only worth something if they fire: plant forbidden imports in a scratch copy of the
// sources and expect the real `deps:check` (dependency-cruiser) and eslint to refuse them, naming the rule.
const root = resolve(__dirname, '../..');
const configs = [
  '.dependency-cruiser.cjs',
  'tsconfig.base.json',
  'tsconfig.depcruise.json',
  'eslint.config.mjs',
  'package.json',
];

function scratchCopy(): string {
  const dir = mkdtempSync(join(tmpdir(), 'maou-layers-'));
  for (const f of configs) cpSync(join(root, f), join(dir, f));
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'));
  for (const pkg of readdirSync(join(root, 'packages'))) {
    const from = join(root, 'packages', pkg);
    if (!existsSync(join(from, 'src'))) continue;
    cpSync(join(from, 'src'), join(dir, 'packages', pkg, 'src'), { recursive: true });
    for (const f of ['package.json', 'tsconfig.json'])
      if (existsSync(join(from, f))) cpSync(join(from, f), join(dir, 'packages', pkg, f));
    if (existsSync(join(from, 'node_modules')))
      symlinkSync(join(from, 'node_modules'), join(dir, 'packages', pkg, 'node_modules'));
  }
  return dir;
}

const run = (dir: string, bin: string, args: string[]) => {
  // CI sets FORCE_COLOR; coloured output would split "error <rule>" with escape codes.
  const env = { ...process.env, FORCE_COLOR: '0', NO_COLOR: '1' };
  const r = spawnSync(join(root, 'node_modules/.bin', bin), args, {
    cwd: dir,
    env,
    encoding: 'utf8',
    timeout: 180_000,
  });
  return { status: r.status, out: `${r.stdout}${r.stderr}` };
};
// The same command as `pnpm deps:check`, in the one-line-per-violation format.
const depcruise = (dir: string) =>
  run(dir, 'depcruise', ['packages', '--config', '.dependency-cruiser.cjs', '--output-type', 'err']);
const plant = (dir: string, file: string, line: string) => appendFileSync(join(dir, file), `\n${line}\n`);

// The rules beyond the layers, one plant each, so every rule in .dependency-cruiser.cjs is proven to fire.
const GENERAL_RULES: readonly (readonly [string, string, string])[] = [
  ['packages/domain/src/stats/student-t.ts', "import 'node:os';", 'domain-no-io'],
  ['packages/app/src/ports/clock.port.ts', "import '@maou/cli';", 'nothing-imports-cli'],
  ['packages/testkit/src/sources/index.ts', "import '@maou/bench-app';", 'only-cli-imports-library'],
  // mulberry32.ts is exported by the domain's index, so importing the index closes a cycle
  ['packages/domain/src/random/mulberry32.ts', "import '../index';", 'no-circular'],
  // a new file nothing imports
  ['packages/domain/src/stray.ts', 'export const stray = 1;', 'no-orphans'],
  ['packages/engine/src/optim/clip-gradients.ts', "import './no-such-file';", 'not-to-unresolvable'],
];

// [file, the import planted in it, the rule that must name it]
const PLANTED: readonly (readonly [string, string, string])[] = [
  ['packages/domain/src/stats/summary.ts', "import '@maou/bench-use-cases';", 'domain-is-pure'],
  ['packages/domain/src/random/mulberry32.ts', "import '@maou/bench-engine';", 'domain-is-pure'],
  ['packages/engine/src/optim/lr-schedule.ts', "import '@maou/bench-infra';", 'engine-only-domain'],
  [
    'packages/engine/src/nn/dense.ts',
    "import type { ClockPort } from '@maou/bench-use-cases';\nexport type Leak = ClockPort;",
    'engine-only-domain',
  ],
  ['packages/engine/src/tape/settle.ts', "import '../../../infra/src/index';", 'engine-only-domain'],
  ['packages/engine/src/anomaly.ts', "import 'reflect-metadata';", 'engine-no-di-no-io'],
  ['packages/engine/src/backend-memory.ts', "import 'node:fs';", 'engine-no-node'],
  ['packages/app/src/ports/clock.port.ts', "import '@maou/bench-infra';", 'app-only-domain-engine'],
  ['packages/interface/src/index.ts', "import '@maou/bench-infra';", 'interface-not-engine-infra'],
  ['packages/interface/src/index.ts', "import '@maou/bench-engine';", 'interface-not-engine-infra'],
  ['packages/infra/src/clock/system-clock.adapter.ts', "import '@maou/bench-interface';", 'infra-not-interface'],
  ['packages/infra/src/logging/pino-logger.adapter.ts', "import '@maou/cli';", 'infra-not-interface'],
  ['packages/host/src/resources/gpu-query.ts', "import '@maou/bench-infra';", 'host-only-domain-app'],
  ['packages/host/src/resources/cgroup-limits.ts', "import '@maou/bench-compute';", 'host-only-domain-app'],
  ['packages/infra/src/clock/system-clock.adapter.ts', "import '@maou/bench-compute';", 'infra-compute-apart'],
  ['packages/compute/src/backend-plugin.ts', "import '@maou/bench-infra';", 'infra-compute-apart'],
  ['packages/compute/src/register-backends.ts', "import '@maou/bench-interface';", 'compute-not-interface'],
  // production code (not a spec) reaching for the testkit, in a shipped package and in the cli
  ['packages/infra/src/npy/npy-stage-writer.ts', "import '@maou/bench-testkit/arrow';", 'testkit-only-in-tests'],
  ['packages/library/src/resource-plan.ts', "import '@maou/bench-testkit/sources';", 'testkit-only-in-tests'],
  ...GENERAL_RULES,
];

describe('layer rules (deps:check)', () => {
  const dirs: string[] = [];
  const copy = (): string => {
    dirs.push(scratchCopy());
    return dirs[dirs.length - 1]!;
  };
  afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

  it('pass on the untouched copy (so a failure below is the planted import)', () => {
    const r = depcruise(copy());
    expect(r.out).toContain('no dependency violations');
    expect(r.status).toBe(0);
  }, 180_000);

  describe('with every forbidden import planted in one copy', () => {
    let out = '';
    let status: number | null = null;
    beforeAll(() => {
      const dir = copy();
      for (const [file, line] of PLANTED) plant(dir, file, line);
      ({ out, status } = depcruise(dir));
    }, 180_000);

    it('fail', () => expect(status).not.toBe(0));

    it.each(PLANTED)('refuse %s importing %s (%s)', (file, _line, rule) => {
      // err format: "  error <rule>: <from> → <to>", a cycle over several lines, an orphan alone
      const violations = out.split(/\berror /).filter((v) => v.startsWith(`${rule}: `));
      expect(violations.filter((v) => v.includes(file))).not.toEqual([]);
    });
  });
});

describe('layer rules (eslint)', () => {
  it('refuse the tsyringe container outside the cli package, the engine included', () => {
    const dir = scratchCopy();
    try {
      const files = ['packages/infra/src/clock/system-clock.adapter.ts', 'packages/engine/src/nn/dense.ts'];
      for (const f of files) plant(dir, f, "import { container } from 'tsyringe';\nexport const leaked = container;");
      const r = run(dir, 'eslint', ['--format', 'json', ...files]);
      const results = JSON.parse(r.out.slice(r.out.indexOf('['))) as {
        filePath: string;
        messages: { message: string }[];
      }[];
      for (const f of files) {
        const messages = results.find((x) => x.filePath.endsWith(f))?.messages.map((m) => m.message);
        expect(messages).toContainEqual(expect.stringContaining('Only packages/cli wires adapters'));
      }
      expect(r.status).not.toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 180_000);
});
