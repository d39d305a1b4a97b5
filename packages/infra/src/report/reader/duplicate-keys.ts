const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const OPEN = new Set([0x7b, 0x5b]); // { [
const CLOSE = new Set([0x7d, 0x5d]); // } ]
const SPACE = new Set([0x20, 0x09, 0x0a, 0x0d]);

/**
 * The first key that a JSON object text (already known to parse) holds twice at its top level, or null. One pass over
 * the characters: strings are skipped whole, nesting is counted, and a string at depth 1 followed by a colon is a key.
 * @internal
 */
export const duplicateTopLevelKey = (text: string): string | null => {
  const seen = new Set<string>();
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      const start = i;
      for (i++; i < text.length && text.charCodeAt(i) !== QUOTE; i++) if (text.charCodeAt(i) === BACKSLASH) i++;
      if (depth !== 1) continue;
      let j = i + 1;
      while (j < text.length && SPACE.has(text.charCodeAt(j))) j++;
      if (text.charCodeAt(j) !== COLON) continue;
      const key = JSON.parse(text.slice(start, i + 1)) as string;
      if (seen.has(key)) return key;
      seen.add(key);
    } else if (OPEN.has(c)) depth++;
    else if (CLOSE.has(c)) depth--;
  }
  return null;
};
