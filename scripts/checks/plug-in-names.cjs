#!/usr/bin/env node
// deps:check's plug-in rule (dependency-cruiser sees imports, not string tests): a backend's or a datasource's name
// may be tested (===, !==, case) only inside the folder of the plug-in that declares it. Everywhere else reads the
// plug-in's capabilities from its registry. Usage: node scripts/checks/plug-in-names.cjs [repository root]
const { readdirSync, readFileSync, statSync } = require('node:fs');
const { dirname, join, relative, sep } = require('node:path');

const root = process.argv[2] ?? process.cwd();
const SKIP = /(\.spec|\.e2e|\.d)\.ts$|[\\/](testing|testdata|fuzz-testing|node_modules|dist)[\\/]/;

const sources = (dir) =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (name === 'node_modules' || name === 'dist') return [];
    return statSync(path).isDirectory() ? sources(path) : path.endsWith('.ts') ? [path] : [];
  });
// Test-only packages (the test kit, the end-to-end tests) may name plug-ins: they drive them from outside.
const TEST_PACKAGES = new Set(['testkit', 'e2e']);
const files = readdirSync(join(root, 'packages')).flatMap((pkg) => {
  if (TEST_PACKAGES.has(pkg)) return [];
  const src = join(root, 'packages', pkg, 'src');
  try {
    return sources(src);
  } catch {
    return [];
  }
});

// A backend plug-in names itself before its usage (`name: 'cpu', usage: ...`, or a NAME constant); a datasource
// plug-in its kind before its help (`kind: 's3', help: ...`).
const owners = new Map();
for (const file of files.filter((f) => /\.(plugin|source)\.ts$/.test(f) && !SKIP.test(f))) {
  const text = readFileSync(file, 'utf8');
  const constant = /const NAME = '([a-z0-9-]+)'/.exec(text)?.[1];
  const declared = /\b(?:name|kind): (?:'([a-z0-9-]+)'|NAME),\s*(?:usage|help):/g;
  const found = [...text.matchAll(declared)];
  // A plug-in file whose name this check cannot read would leave that name unguarded: refuse it.
  if (!found.length) {
    process.stderr.write(
      `plug-in-names: ${relative(root, file)} declares no name this check can read ("name: '…', usage:" or "kind: '…', help:")\n`,
    );
    process.exit(1);
  }
  for (const m of found) owners.set(m[1] ?? constant, dirname(file));
}
if (owners.size === 0) {
  process.stderr.write('plug-in-names: found no plug-in declarations; the check would prove nothing\n');
  process.exit(1);
}

const names = [...owners.keys()].map((n) => n.replace(/-/g, '\\-')).join('|');
const test = new RegExp(
  `(?:[!=]==?\\s*'(${names})'(?![\\w-]))|(?:'(${names})'\\s*[!=]==?)|(?:case '(${names})':)`,
  'g',
);
const violations = [];
for (const file of files.filter((f) => !SKIP.test(f))) {
  const lines = readFileSync(file, 'utf8').split('\n');
  lines.forEach((line, i) => {
    // A string that only looks like a name (/proc/stat's `cpu` line, an env value) says so on its line.
    if (/^\s*(\/\/|\*)/.test(line) || line.includes('not a plug-in name')) return;
    for (const m of line.matchAll(test)) {
      const name = m[1] ?? m[2] ?? m[3];
      const home = owners.get(name);
      if (!(file + sep).startsWith(home + sep))
        violations.push(
          `${relative(root, file)}:${i + 1}: tests the plug-in name '${name}' outside ${relative(root, home)}/`,
        );
    }
  });
}
if (violations.length) {
  process.stderr.write(
    `plug-in-names: ${violations.length} test(s) of a plug-in's name outside its folder; read a capability from its registry instead:\n${violations.join('\n')}\n`,
  );
  process.exit(1);
}
process.stdout.write(
  `plug-in-names: ${owners.size} plug-ins (${[...owners.keys()].join(', ')}); no name tested outside its folder\n`,
);
