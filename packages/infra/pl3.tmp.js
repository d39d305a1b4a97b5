const pl = require('nodejs-polars');
const { parseArrowIpc } = require('./dist/arrow/feather-reader');
const { countArrowRows } = require('./dist/arrow/arrow-row-count');
const fs = require('fs');
const { buildBatches, encodeArrowIpc, stageColumnData } = require('./dist/arrow/feather-writer');
const mk = (n, off) => {
  const ml = new Float32Array(n*1496); for (let i=0;i<n;i++) ml[i*1496 + (i*7)%1496] = 1;
  const cols = { stage: 3, rows: n, boardIdPositions: new Uint8Array(n*81).map((_, i) => (i+off) % 29), piecesInHand: new Uint8Array(n*14).map((_, i)=> i%3), moveLabel: ml, resultValue: new Float32Array(n).map((_, i) => (i%3)/2) };
  const ids = new BigUint64Array(n).map((_, i) => BigInt(i+1+off));
  return pl.readIPC(Buffer.from(encodeArrowIpc(buildBatches(n, n, (s, k) => stageColumnData(cols, ids, s, k)), {})));
};
const df = pl.concat([mk(3000, 0), mk(3000, 5), mk(2000, 9)], { rechunk: false, how: "vertical" });
console.log(df.nChunks?.(), df.height);
for (const c of ['lz4','zstd','uncompressed']) {
  df.writeIPC('/tmp/pl3.feather', { compression: c });
  const b = fs.readFileSync('/tmp/pl3.feather');
  let cnt; try { cnt = countArrowRows(b) } catch (e) { cnt = e.message }
  const r = parseArrowIpc('/tmp/pl3.feather', new Uint8Array(b));
  console.log(c, b.length, cnt, r.ok ? [r.value.rows, r.value.batches.length, r.value.batches[2].getChildAt(0).get(1), JSON.stringify([...r.value.batches[1].getChildAt(1).get(1).get(0)])] : r.error.message);
  df.writeIPCStream('/tmp/pl3.arrows', { compression: c });
  const b2 = fs.readFileSync('/tmp/pl3.arrows');
  try { cnt = countArrowRows(b2) } catch (e) { cnt = e.message }
  const r2 = parseArrowIpc('/tmp/pl3.arrows', new Uint8Array(b2));
  console.log(' stream', b2.length, cnt, r2.ok ? [r2.value.rows, r2.value.batches.length] : r2.error.message);
}
