#!/usr/bin/env node
// Generates the JSON Schemas of the reports (packages/library/schemas/*.schema.json) from their TypeScript types
// (packages/library/src/report-schemas/report-types.ts), so the schema and the type are one source. Each schema's `$id`
// is what the written JSON names in `$schema`.
//
//   node scripts/generate-report-schemas.cjs [--check]   (--check: exit 1 when a committed schema differs)
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { createGenerator } = require('ts-json-schema-generator');
// The list of schemas from the built package (its report-schemas export: the list alone, not the command line).
const { REPORT_SCHEMAS } = require('@maou/bench-app/report-schemas');

const repo = path.resolve(__dirname, '..');
const out = path.join(repo, 'packages/library/schemas');
const generator = createGenerator({
  path: path.join(repo, 'packages/library/src/report-schemas/report-types.ts'),
  tsconfig: path.join(repo, 'tsconfig.depcruise.json'),
  skipTypeCheck: true,
  additionalProperties: false,
  expose: 'export',
  topRef: false,
});
/**
 * The JSON writer (toJson in @maou/bench-infra) writes NaN and ±Infinity as null, JSON having no such numbers: so,
 * in the files, every number may be null.
 */
const nullableNumbers = (node) => {
  if (Array.isArray(node)) return node.map(nullableNumbers);
  if (!node || typeof node !== 'object') return node;
  const out = Object.fromEntries(Object.entries(node).map(([k, v]) => [k, nullableNumbers(v)]));
  if (out.type === 'number') out.type = ['number', 'null'];
  else if (Array.isArray(out.type) && out.type.includes('number') && !out.type.includes('null'))
    out.type = [...out.type, 'null'];
  return out;
};

const check = process.argv.includes('--check');
let stale = 0;
for (const [name, { id, type, title }] of Object.entries(REPORT_SCHEMAS)) {
  const schema = {
    $schema: 'http://json-schema.org/draft-07/schema#',
    $id: id,
    title,
    ...nullableNumbers(generator.createSchema(type)),
  };
  delete schema.definitions?.[type];
  const text = `${JSON.stringify(schema, null, 2)}\n`;
  const file = path.join(out, `${name}.schema.json`);
  if (check) {
    if (!fs.existsSync(file) || fs.readFileSync(file, 'utf8') !== text) {
      console.error(
        `generate-report-schemas: ${path.relative(repo, file)} is stale; run node scripts/generate-report-schemas.cjs`,
      );
      stale += 1;
    }
  } else {
    fs.mkdirSync(out, { recursive: true });
    fs.writeFileSync(file, text);
    console.log(`generate-report-schemas: wrote ${path.relative(repo, file)}`);
  }
}
process.exitCode = stale ? 1 : 0;
