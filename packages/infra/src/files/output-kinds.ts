import { fileHead, type OutputKind } from './atomic-file';

// Every file this product writes is pretty-printed JSON (two spaces), an HTML page or a data file; the markers below
// are the first keys it writes, so the first kilobyte of a file tells whether it is one of ours.

/**
 * `--output-json` of any command (and the interrupted run's stub): a `$schema` of this product first (training,
 * dataloader and batch-study reports), or a top-level `"command"` among the first keys (compare, io).
 * @public
 */
export const JSON_REPORT: OutputKind = {
  what: 'a report written by maou-bench (JSON whose "$schema" is "urn:maou-bench:…" or whose "command" is "benchmark-…")',
  owns: (head) =>
    /^\{\n {2}"\$schema": "urn:maou-bench:/.test(head) ||
    /^\{\n(?: {2}"[^"\n]*": [^\n]*\n){0,4} {2}"command": "benchmark-[a-z-]+"/.test(head),
};

/** `--report-html`: the page's generator meta tag. @public */
export const HTML_REPORT: OutputKind = {
  what: 'an HTML report written by maou-bench (<meta name="generator" content="maou-bench">)',
  owns: (head) => head.startsWith('<!doctype html>') && head.includes('<meta name="generator" content="maou-bench">'),
};

/** The marker a trace carries first, in the trace format's place for anything else (`otherData`). @public */
export const TRACE_MARKER = { generator: 'maou-bench' } as const;

/** `--trace-path`: a Chrome trace whose `otherData` names this product. @public */
export const TRACE_FILE: OutputKind = {
  what: 'a trace written by maou-bench (JSON whose "otherData" is {"generator": "maou-bench"})',
  owns: (head) => /^\{\n {2}"otherData": \{\n {4}"generator": "maou-bench"/.test(head),
};

/** `--calibration-file`: `formatVersion` then `entries`, whatever the version. @public */
export const CALIBRATION_FILE: OutputKind = {
  what: 'a calibration file written by maou-bench (JSON with "formatVersion" and "entries")',
  owns: (head) => /^\{\s*"formatVersion":\s*\d+,\s*"entries":\s*\{/.test(head),
};

/** The files only this run creates (benchmark-io's temporaries, in a directory it made): never an existing one. @public */
export const NEW_FILE: OutputKind = { what: 'a file this run creates', owns: () => false };

/** Where the SHA-256 of a cached file's bytes is recorded: beside it, `<name>.sha256`. @public */
export const cacheRecordPath = (path: string): string => `${path}.sha256`;

/** The record beside a cached file: 64 hex digits and a newline, nothing else. @public */
export const CACHE_RECORD: OutputKind = {
  what: 'a SHA-256 record written by maou-bench (64 hex digits)',
  owns: (head) => /^[0-9a-f]{64}\n$/.test(head),
};

/**
 * A file in a cache folder (an S3/GCS object's copy, a bundle, a BigQuery page): its bytes are the data's own, so
 * the marker is beside it, the {@link CACHE_RECORD} written before it was renamed into place.
 * @public
 */
export const CACHED_FILE: OutputKind = {
  what: 'a file cached by maou-bench (its SHA-256 recorded in <name>.sha256 beside it)',
  owns: (_head, path) => CACHE_RECORD.owns(fileHead(cacheRecordPath(path)) ?? '', cacheRecordPath(path)),
};
