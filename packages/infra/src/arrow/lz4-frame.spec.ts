import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeLz4Frame, encodeLz4Frame, Lz4FormatError } from './lz4-frame';
import { xxhash32 } from './lz4-xxhash32';

// Frames written by the reference `lz4` command (Debian package lz4; scripts/setup-system.sh installs it): the
// checksums verified here are the reference implementation's, not ours.
const dir = mkdtempSync(join(tmpdir(), 'maou-lz4-'));
const lz4 = (args: readonly string[], input: Uint8Array): Uint8Array => {
  const inPath = join(dir, 'in');
  writeFileSync(inPath, input);
  const r = spawnSync('lz4', ['-q', '-f', ...args, inPath, join(dir, 'out')], { encoding: 'utf8' });
  if (r.status !== 0)
    throw new Error(`lz4 ${args.join(' ')} failed (is the lz4 package installed?): ${r.error ?? r.stderr}`);
  return new Uint8Array(readFileSync(join(dir, 'out')));
};

// Compressible but not trivial: numbers from a fixed LCG, as text.
const sample = (bytes: number): Uint8Array => {
  let x = 12345;
  const parts: string[] = [];
  let n = 0;
  while (n < bytes) {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    const s = `${x % 1000},`;
    parts.push(s);
    n += s.length;
  }
  return new Uint8Array(Buffer.from(parts.join('').slice(0, bytes)));
};
const data = sample(600_000);
const flip = (frame: Uint8Array, at: number): Uint8Array => {
  const out = frame.slice();
  out[at] = (out[at] ?? 0) ^ 0x20;
  return out;
};

describe('xxhash32', () => {
  it('matches the published values', () => {
    const h = (s: string): string => xxhash32(new Uint8Array(Buffer.from(s))).toString(16);
    expect([h(''), h('abc'), h('Nobody inspects the spammish repetition')]).toEqual([
      '2cc5d05',
      '32d153ff',
      'e2293b2f',
    ]);
  });
});

describe('LZ4 frames (#19)', () => {
  it.each([[['-B4', '-BX', '--content-size']], [['-B5', '--no-frame-crc']], [['-B6', '-BD']], [['-B7']]])(
    'given a frame the lz4 command wrote with %p, then it decodes to the input with its checksums verified',
    (args) => {
      expect(Buffer.from(decodeLz4Frame(lz4(args, data))).equals(Buffer.from(data))).toBe(true);
    },
  );

  it('given a flipped byte in a block, then the block checksum (or the content checksum) names it', () => {
    const withBlockSums = lz4(['-B4', '-BX'], data);
    expect(() => decodeLz4Frame(flip(withBlockSums, 200))).toThrow(
      /LZ4 frame, byte \d+: block checksum 0x[0-9a-f]+ does not match/,
    );
    const contentOnly = lz4(['-B4'], data);
    expect(() => decodeLz4Frame(flip(contentOnly, 200))).toThrow(Lz4FormatError);
  });

  it('given a frame whose content checksum no longer matches, then the frame is refused, not decoded silently', () => {
    // A literal byte changed inside the first block: the sequence still decodes, only the checksum can tell.
    const frame = lz4(['-B4'], data);
    const literal = 7 + 4 + 1 + 2; // magic, FLG, BD, HC, block size, token; then literals
    const damaged = flip(frame, literal);
    expect(() => decodeLz4Frame(damaged)).toThrow(/content checksum 0x[0-9a-f]+ does not match the decoded content's/);
  });

  it('given a damaged frame descriptor, then the header checksum names the byte', () => {
    expect(() => decodeLz4Frame(flip(lz4(['-B4', '--content-size'], data), 7))).toThrow(
      /LZ4 frame, byte 14: header checksum/,
    );
  });

  it('given frames we write, then they carry content size and checksum and the lz4 command verifies them', () => {
    const ours = encodeLz4Frame(data);
    expect((ours[4] ?? 0) & 0x0c).toBe(0x0c);
    writeFileSync(join(dir, 'ours.lz4'), ours);
    const r = spawnSync('lz4', ['-q', '-d', '-c', join(dir, 'ours.lz4')], { maxBuffer: 16 << 20 });
    expect(r.status).toBe(0);
    expect(Buffer.from(r.stdout).equals(Buffer.from(data))).toBe(true);
    expect(Buffer.from(decodeLz4Frame(ours)).equals(Buffer.from(data))).toBe(true);
    expect(decodeLz4Frame(encodeLz4Frame(new Uint8Array(0)))).toHaveLength(0);
  });

  it('given more output than allowed, then it is refused before allocating, saying how much was asked for', () => {
    const zeros = lz4(['-B7'], new Uint8Array(64 << 20));
    expect(zeros.length).toBeLessThan(1 << 20);
    expect(() => decodeLz4Frame(zeros, { maxBytes: 8 << 20 })).toThrow(
      /decompressing would need 67108864 bytes \(1 frame\(s\) of \d+ compressed bytes\), more than the 8388608 bytes available/,
    );
  });

  it('given a descriptor claiming 2^40 bytes of content, then it is refused against available memory', () => {
    const frame = encodeLz4Frame(data);
    new DataView(frame.buffer).setUint32(10, 256, true);
    frame[14] = (xxhash32(frame, 4, 14) >>> 8) & 0xff;
    expect(() => decodeLz4Frame(frame)).toThrow(
      /decompressing would need 1099512227776 bytes .* more than the \d+ bytes available/,
    );
  });

  it('given a content size that disagrees with the blocks, or an expected size that does, then the sizes are named', () => {
    const frame = encodeLz4Frame(data);
    new DataView(frame.buffer).setUint32(6, data.length - 1, true);
    frame[14] = (xxhash32(frame, 4, 14) >>> 8) & 0xff;
    expect(() => decodeLz4Frame(frame)).toThrow(Lz4FormatError);
    expect(() => decodeLz4Frame(encodeLz4Frame(data), { expectedBytes: data.length + 10 })).toThrow(
      /decoded 600000 bytes where 600010 were expected/,
    );
  });

  it('given buffers sized around every block boundary whose blocks end in late matches, then liblz4 accepts every frame', () => {
    // A block must not start a match in its last 12 bytes (liblz4 rejects it; lz4js 0.2.0 wrote such blocks). Each
    // buffer ends every 4 MiB block, and itself, with 11 bytes copied from earlier after bytes that match nothing,
    // so a compressor that looks for matches that late finds one there.
    const block = 4 << 20;
    const sizes = [0, 1, 5, 12, 13, 17, 64, 65_536 + 11];
    for (const d of [-13, -12, -11, -5, -1, 0, 1, 5, 11, 12, 13]) sizes.push(block + d);
    for (const d of [-12, 0, 12]) sizes.push(2 * block + d);
    const text = sample(2 * block + 13);
    const paths = sizes.map((n) => {
      const buf = text.slice(0, n);
      const ends = [...Array.from({ length: Math.floor(n / block) }, (_, i) => (i + 1) * block), n];
      let x = n;
      for (const end of ends.filter((e) => e >= 48)) {
        for (let i = end - 35; i < end - 11; i++)
          buf[i] = 128 + ((x = (Math.imul(x, 1103515245) + 12345) >>> 0) >>> 25);
        buf.copyWithin(end - 11, 8, 19);
      }
      const frame = encodeLz4Frame(buf);
      const path = join(dir, `boundary-${n}.lz4`);
      writeFileSync(path, frame);
      return path;
    });
    // The content checksum is of the input, so a frame that passes decodes to it.
    const r = spawnSync('lz4', ['-t', '-m', ...paths], { encoding: 'utf8' });
    expect(r.stderr).not.toMatch(/Error/);
    expect(r.status).toBe(0);
  });

  it('given every truncation of a frame, then each ends in a typed error', () => {
    const frame = lz4(['-B4', '-BX', '--content-size'], sample(5000));
    for (let cut = 0; cut < frame.length; cut++) {
      const part = frame.subarray(0, cut);
      if (cut === 0) expect(decodeLz4Frame(part)).toHaveLength(0);
      else expect(() => decodeLz4Frame(part)).toThrow(Lz4FormatError);
    }
  });
});
