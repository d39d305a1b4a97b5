/**
 * Serialises a value for a `<script type="application/json">` block.
 * `<`, `>` and `&` become \u escapes so no user string can close the script element or open a comment;
 * U+2028/U+2029 are escaped for old JS parsers; NaN and infinities become null (JSON has no such numbers).
 * @public
 */
export const embedJson = (value: unknown): string =>
  JSON.stringify(value, (_key, v: unknown) => (typeof v === 'number' && !Number.isFinite(v) ? null : v))
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');

const ENTITIES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Escapes text for an HTML text node or a quoted attribute. @public */
export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => ENTITIES[c]!);
