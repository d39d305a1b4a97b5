/// <reference lib="dom" preserve="true" />
// tfjs-core's declarations, which ours re-export, name browser types (WebGLTexture, HTMLImageElement, …) and a global
// `Long` they never import (hash_util.d.ts). A consumer that checks declarations (skipLibCheck: false) needs both, so
// they come with this package's: the DOM lib, and `Long` as the 64-bit value tfjs's hash returns.
declare global {
  /** A 64-bit integer as two 32-bit halves (the `long` package's shape), as tfjs-core's hash_util returns it. */
  interface Long {
    readonly low: number;
    readonly high: number;
    readonly unsigned: boolean;
  }
}

export {};
