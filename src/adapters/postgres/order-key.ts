/**
 * A key that orders ids as the core does (UTF-16 code units, `compareStrings`) under COLLATE "C" (code
 * points): the two differ only where a character from U+E000 to U+FFFF meets one beyond U+FFFF, which UTF-16
 * puts first; such a character is moved past every other by a U+10FFFF before it.
 */
export const utf16Order = (column: string) =>
  `regexp_replace(${column}, U&'([\\E000-\\FFFF])', U&'\\+10FFFF\\\\1', 'g') COLLATE "C"`;

/** One leaf line of the record-set tree (attest-digests.ts): id, U+0000, fingerprint, newline, as UTF-8 bytes. */
export const leafBytes = (id: string, fingerprint: string) =>
  `convert_to(${id}, 'UTF8') || '\\x00'::bytea || convert_to(${fingerprint}, 'UTF8') || '\\x0a'::bytea`;
