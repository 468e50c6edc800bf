/**
 * Instants are carried as ISO 8601 strings in files and as epoch milliseconds inside the compiler,
 * so that SQLite and the TypeScript evaluator compare the very same integers.
 */

const DAY_MS = 86_400_000;

export type InstantBoundary = 'start' | 'end';

/**
 * Days from 1970-01-01 to a date of the proleptic Gregorian calendar, by arithmetic (H. Hinnant's
 * days_from_civil): the year is the year as written, 0 and 0042 included, where `Date.UTC` reads 0–99 as
 * 1900–1999. A large file parses up to three instants per record, and two Date objects for each cost more than
 * this does.
 */
function daysFromCivil(year: number, month: number, day: number): number {
  const shifted = month <= 2 ? year - 1 : year;
  const era = Math.floor(shifted / 400);
  const yearOfEra = shifted - era * 400;
  const dayOfYear = Math.floor((153 * ((month + 9) % 12) + 2) / 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146_097 + dayOfEra - 719_468;
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function isRealDate(year: number, month: number, day: number): boolean {
  if (month < 1 || month > 12 || day < 1) return false;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return day <= (month === 2 && leap ? 29 : (DAYS_IN_MONTH[month - 1] as number));
}

/** Epoch milliseconds of a real UTC calendar instant. */
function utcMs(year: number, month: number, day: number, hour = 0, minute = 0, second = 0, millis = 0): number {
  return daysFromCivil(year, month, day) * DAY_MS + ((hour * 60 + minute) * 60 + second) * 1000 + millis;
}

const DASH = 0x2d;
const COLON = 0x3a;
const DOT = 0x2e;
const PLUS = 0x2b;
const LETTER_T = 0x54;
const LETTER_Z = 0x5a;

/** The number written by `count` ASCII digits at `at`, or -1 if any is not one (or the text ends first). */
function digitsAt(text: string, at: number, count: number): number {
  let value = 0;
  for (let index = at; index < at + count; index += 1) {
    const digit = text.charCodeAt(index) - 0x30;
    // charCodeAt past the end is NaN, which fails this test too.
    if (!(digit >= 0 && digit <= 9)) return -1;
    value = value * 10 + digit;
  }
  return value;
}

/**
 * Parses a date (`2026-08-30`) or a date-time with an explicit offset. A bare date means the start of
 * that UTC day, or its last millisecond when it closes an interval (`valid to 2026-08-28` includes the 28th).
 * Returns null for anything that is not a real calendar instant (`2026-02-30`, `24:00`, no offset).
 *
 * The grammar is `YYYY-MM-DD` or `YYYY-MM-DDTHH:MM[:SS[.f{1,3}]](Z|±HH:MM)`, ASCII digits only, read a
 * character at a time: a record holds up to three instants, and its schema and its check read each one, so a
 * large file parses hundreds of thousands (a regular expression and its captured strings cost far more;
 * docs/DECISIONS.md).
 */
export function parseInstant(text: string, boundary: InstantBoundary = 'start'): number | null {
  const year = digitsAt(text, 0, 4);
  const month = digitsAt(text, 5, 2);
  const day = digitsAt(text, 8, 2);
  if (
    year < 0 ||
    month < 0 ||
    day < 0 ||
    text.charCodeAt(4) !== DASH ||
    text.charCodeAt(7) !== DASH ||
    !isRealDate(year, month, day)
  )
    return null;
  if (text.length === 10) {
    const start = utcMs(year, month, day);
    return boundary === 'start' ? start : start + DAY_MS - 1;
  }
  const hour = digitsAt(text, 11, 2);
  const minute = digitsAt(text, 14, 2);
  if (
    text.charCodeAt(10) !== LETTER_T ||
    text.charCodeAt(13) !== COLON ||
    hour < 0 ||
    hour > 23 ||
    minute < 0 ||
    minute > 59
  )
    return null;
  let at = 16;
  let second = 0;
  let millis = 0;
  if (text.charCodeAt(at) === COLON) {
    second = digitsAt(text, at + 1, 2);
    if (second < 0 || second > 59) return null;
    at += 3;
    if (text.charCodeAt(at) === DOT) {
      at += 1;
      let places = 0;
      for (let digit = digitsAt(text, at, 1); places < 3 && digit >= 0; digit = digitsAt(text, at, 1)) {
        millis = millis * 10 + digit;
        places += 1;
        at += 1;
      }
      if (places === 0) return null;
      millis *= places === 1 ? 100 : places === 2 ? 10 : 1;
    }
  }
  let offsetMinutes = 0;
  const sign = text.charCodeAt(at);
  if (sign === LETTER_Z) {
    if (text.length !== at + 1) return null;
  } else {
    const offHours = digitsAt(text, at + 1, 2);
    const offMinutes = digitsAt(text, at + 4, 2);
    if (
      (sign !== PLUS && sign !== DASH) ||
      text.length !== at + 6 ||
      text.charCodeAt(at + 3) !== COLON ||
      offHours < 0 ||
      offHours > 23 ||
      offMinutes < 0 ||
      offMinutes > 59
    )
      return null;
    offsetMinutes = (sign === DASH ? -1 : 1) * (offHours * 60 + offMinutes);
  }
  return utcMs(year, month, day, hour, minute, second, millis) - offsetMinutes * 60_000;
}

export function formatInstant(epochMs: number): string {
  return new Date(epochMs).toISOString();
}

/** Formats an instant for a boundary fact: the date alone when it falls on a day edge. */
export function formatInstantShort(epochMs: number): string {
  const iso = formatInstant(epochMs);
  if (iso.endsWith('T00:00:00.000Z') || iso.endsWith('T23:59:59.999Z')) return iso.slice(0, 10);
  return iso.replace('.000Z', 'Z');
}
