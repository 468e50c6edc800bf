import { z } from 'zod';

/**
 * Unicode's default-ignorable code points and its bidi controls: characters that show as nothing, or that
 * reorder what is around them. In an identifier they make two ids that print alike but compare unequal.
 */
const INVISIBLE_CHARACTER =
  /[\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u202a-\u202e\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0\u{1bca0}-\u{1bca3}\u{1d173}-\u{1d17a}\u{e0000}-\u{e0fff}]/gu;
const ASCII_ONLY = /^[\u0000-\u007f]*$/;

/** A code point as people look it up: `U+200B`. */
export function codePointName(char: string): string {
  return `U+${(char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;
}

/** The invisible and bidi control characters an identifier holds, each once, as `U+200B`. */
export function invisibleCodePoints(value: string): string[] {
  if (ASCII_ONLY.test(value)) return [];
  return [...new Set(Array.from(value.matchAll(INVISIBLE_CHARACTER), (match) => codePointName(match[0])))];
}

/** True when the identifier is written in Unicode normalisation form C, the one form two equal-looking ids share. */
export function isNfc(value: string): boolean {
  return ASCII_ONLY.test(value) || value.normalize('NFC') === value;
}

/**
 * The code points where an identifier is not in NFC, and what NFC writes instead: the characters of the
 * first differing stretch (`U+0045 U+0301` and `U+00C9`).
 */
export function nfcDifference(value: string): { readonly found: string; readonly nfc: string } {
  const nfc = value.normalize('NFC');
  const given = Array.from(value);
  const normal = Array.from(nfc);
  let start = 0;
  while (start < given.length && given[start] === normal[start]) start += 1;
  let end = 0;
  while (
    end < given.length - start &&
    end < normal.length - start &&
    given[given.length - 1 - end] === normal[normal.length - 1 - end]
  )
    end += 1;
  const names = (chars: readonly string[]) => chars.map(codePointName).join(' ');
  return { found: names(given.slice(start, given.length - end)), nfc: names(normal.slice(start, normal.length - end)) };
}

/**
 * The checks every identifier passes (record ids, names, labels, roles, purposes, scopes, control ids):
 * no invisible or bidi control character, and NFC. With both, no two accepted identifiers print alike
 * and differ, and none needs normalising to compare. The issue codes are worded by the catalogue.
 */
function lookAlikeFree<T extends z.ZodString>(schema: T) {
  return schema
    .refine((value) => invisibleCodePoints(value).length === 0, {
      message: 'an identifier without invisible characters',
      params: { issue: 'INVISIBLE_CHARACTER' },
    })
    .refine(isNfc, { message: 'an identifier in Unicode NFC', params: { issue: 'NOT_NFC' } });
}

/** Stable identifiers: no whitespace, so they survive copying into packet text and SQL parameters. */
export const idSchema = lookAlikeFree(z.string().min(1).max(200).regex(/^\S+$/, 'an id without whitespace'));

/** Roles, purposes, labels, scopes, classes, identities: identifiers that may hold spaces. */
export const nameSchema = lookAlikeFree(z.string().min(1).max(200));
