const pl = require('nodejs-polars');
const { parseArrowIpc } = require('./dist/arrow/feather-reader');
const { countArrowRows } = require('./dist/arrow/arrow-row-count');
const { generateSampleColumns } = (() => { try { return require('./dist/sample/sample-data'); } catch { return {}; } })();
const fs = require('fs');
// write with our writer uncompressed
const { buildBatches, encodeArrowIpc, stageColumnData } = require('./dist/arrow/feather-writer');
const n = 1000;
const cols = { stage: 1, rows: n, boardIdPositions: new Uint8Array(n*81).map((_, i) => i % 29), piecesInHand: new Uint8Array(n*14).map((_, i)=> i%3), reachableSquares: new Uint8Array(n*81).map((_, i)=> i%2) };
const ids = new BigUint64Array(n).map((_, i) => BigInt(i+1));
const bytes = encodeArrowIpc(buildBatches(n, n, (s, k) => stageColumnData(cols, ids, s, k)), {});
const df = pl.readIPC(Buffer.from(bytes));
console.log(df.schema, df.height);
for (const c of ['lz4','zstd','uncompressed']) {
  df.writeIPC('/tmp/pl2.feather', { compression: c });
  const b = fs.readFileSync('/tmp/pl2.feather');
  let cnt; try { cnt = countArrowRows(b) } catch (e) { cnt = e.message }
  const r = parseArrowIpc('/tmp/pl2.feather', new Uint8Array(b));
  console.log(c, b.length, cnt, r.ok ? [r.value.rows, r.value.batches.length, String(r.value.schema.fields.map(f=>f.type)), r.value.batches[0].getChildAt(0).get(1), JSON.stringify([...r.value.batches[0].getChildAt(1).get(1).get(0)])] : r.error.message);
}
