import { seededRandom } from '../sample-data/seeded-random';
import { decodeZstdFrame, loadZstd, MAX_ZSTD_OUTPUT, ZstdFormatError } from './zstd-frame';

// The `id` column (32 uint64 ids) of a Polars write_ipc_stream(compression="zstd") batch, as Polars wrote it, and the
// same frame with one byte changed by the fuzzer: fzstd, the decoder used before, looped forever on the second.
const POLARS_FRAME = Buffer.from(
  '28b52ffd00587501006244090710f8cc01132353ff2e77abcd62afd62a752a8d429fce2673a94c228fc62271280c02df011f5402000301',
  'hex',
);
const LOOPED_FZSTD = Buffer.from(
  '28b52ffd00587501006244090710f8d901132353ff2e77abcd62afd62a752a8d429fce2673a94c228fc62271280c02df011f5402000301',
  'hex',
);

describe('ZSTD frames', () => {
  beforeAll(() => loadZstd());

  it('given a frame Polars wrote, when decoded, then it yields the 32 ids it holds', () => {
    const out = decodeZstdFrame(POLARS_FRAME, 256);
    expect(out.length).toBe(256);
    expect(Array.from(new BigUint64Array(out.buffer, out.byteOffset, 32), Number)).toEqual(
      Array.from({ length: 32 }, (_, i) => i),
    );
  });

  it('given the frame that made fzstd loop, when decoded, then a ZstdFormatError comes back at once', () => {
    expect(() => decodeZstdFrame(LOOPED_FZSTD, 256)).toThrow(ZstdFormatError);
  });

  it('given lying sizes, then nothing is allocated for them', () => {
    // Polars' frames carry no content size, so the buffer's prefix bounds the output: too small fails, too large is caught.
    expect(() => decodeZstdFrame(POLARS_FRAME, 255)).toThrow(/corrupt/);
    expect(() => decodeZstdFrame(POLARS_FRAME, 257)).toThrow(/decoded 256 bytes, expected 257/);
    expect(() => decodeZstdFrame(POLARS_FRAME, MAX_ZSTD_OUTPUT + 1)).toThrow(/exceeds the/);
    expect(() => decodeZstdFrame(POLARS_FRAME, null)).toThrow(/neither the frame nor the buffer/);
    const huge = Buffer.from(POLARS_FRAME);
    huge[4] = 0xc0; // 8-byte content size field, single segment off: the size now reads as garbage far above the limit
    expect(() => decodeZstdFrame(huge, null)).toThrow(
      new RegExp(`exceeds the ${MAX_ZSTD_OUTPUT}-byte limit|runs past|corrupt`),
    );
    expect(() => decodeZstdFrame(POLARS_FRAME.subarray(0, 4), 256)).toThrow(/too short/);
  });

  it('given 2,000 seeded mutations of the Polars frame, then each decodes or throws ZstdFormatError', () => {
    const random = seededRandom(1305);
    for (let i = 0; i < 2000; i++) {
      const m = Buffer.from(POLARS_FRAME);
      for (let k = 0; k < 1 + (i % 3); k++) m[Math.floor(random() * m.length)] ^= 1 << Math.floor(random() * 8);
      try {
        expect(decodeZstdFrame(m, 256).length).toBe(256);
      } catch (e) {
        if (!(e instanceof ZstdFormatError)) throw new Error(`mutation ${i}: ${String(e)}`);
      }
    }
  });
});
