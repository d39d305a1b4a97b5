import { createHash, type Hash } from 'node:crypto';
import { createReadStream } from 'node:fs';

/**
 * The one SHA-256 of this product's files, in hex: the sample manifest's and the cache's records are made and checked
 * with it. Fed whole bytes ({@link Sha256.of}), a file ({@link Sha256.ofFile}) or chunks as they pass (a download, a
 * bundle being written), then read once with {@link Sha256.hex}.
 * @public
 */
export class Sha256 {
  private readonly hash: Hash = createHash('sha256');

  add(bytes: Uint8Array): this {
    this.hash.update(bytes);
    return this;
  }

  hex(): string {
    return this.hash.digest('hex');
  }

  static of(bytes: Uint8Array): string {
    return new Sha256().add(bytes).hex();
  }

  static async ofFile(path: string): Promise<string> {
    const sum = new Sha256();
    for await (const chunk of createReadStream(path)) sum.add(chunk as Buffer);
    return sum.hex();
  }
}
