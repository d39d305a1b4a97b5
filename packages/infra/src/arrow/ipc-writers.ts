import { RecordBatchFileWriter, RecordBatchStreamWriter } from 'apache-arrow';

type Compressed = ReturnType<RecordBatchFileWriter['_compressBodyBuffers']>;

/**
 * apache-arrow 21 writes the *compressed* size into each buffer's int64 length prefix; the IPC spec (and pyarrow)
 * expect the uncompressed size. Rewrites the prefixes of the compressed buffers after the library has built them.
 */
const fixPrefixes = (originals: ArrayBufferView[], result: Compressed): Compressed => {
  originals.forEach((original, i) => {
    const prefix = result.buffers[2 * i];
    if (!prefix || prefix.byteLength !== 8) return; // empty buffers carry no prefix
    const view = new DataView(prefix.buffer, prefix.byteOffset, 8);
    if (view.getBigInt64(0, true) !== -1n) view.setBigInt64(0, BigInt(original.byteLength), true);
  });
  return result;
};

/** IPC File writer whose compressed buffers carry spec-conformant length prefixes. @internal */
export class SpecFileWriter extends RecordBatchFileWriter {
  protected override _compressBodyBuffers(buffers: ArrayBufferView[]): Compressed {
    return fixPrefixes(buffers, super._compressBodyBuffers(buffers));
  }
}

/** IPC Stream writer with the same fix. @internal */
export class SpecStreamWriter extends RecordBatchStreamWriter {
  protected override _compressBodyBuffers(buffers: ArrayBufferView[]): Compressed {
    return fixPrefixes(buffers, super._compressBodyBuffers(buffers));
  }
}
