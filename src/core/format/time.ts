/**
 * Instants are carried as ISO 8601 strings in files and as epoch milliseconds inside the compiler,
 * so that SQLite and the TypeScript evaluator compare the very same integers.
 */
const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?(Z|[+-]\d{2}:\d{2})$/;

const DAY_MS = 86_400_000;

export type InstantBoundary = 'start' | 'end';

/**
 * Days from 1970-01-01 to a date of the proleptic Gregorian calendar, by arithmetic (H. Hinnant's
 * days_from_civil): the year is the year as written, 0 and 0042 included, where `Date.UTC` reads 0–99 as
 * 1900–1999. Reading 100,000 records parses 300,000 instants, and two Date objects for each cost more than
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

/**
 * Parses a date (`2026-08-30`) or a date-time with an explicit offset. A bare date means the start of
 * that UTC day, or its last millisecond when it closes an interval (`valid to 2026-08-28` includes the 28th).
 * Returns null for anything that is not a real calendar instant (`2026-02-30`, `24:00`, no offset).
 */
export function parseInstant(text: string, boundary: InstantBoundary = 'start'): number | null {
  const dateOnly = DATE_ONLY.exec(text);
  if (dateOnly) {
    const [year, month, day] = [Number(dateOnly[1]), Number(dateOnly[2]), Number(dateOnly[3])];
    if (!isRealDate(year, month, day)) return null;
    const start = utcMs(year, month, day);
    return boundary === 'start' ? start : start + DAY_MS - 1;
  }
  const dateTime = DATE_TIME.exec(text);
  if (!dateTime) return null;
  const [year, month, day] = [Number(dateTime[1]), Number(dateTime[2]), Number(dateTime[3])];
  const [hour, minute, second] = [Number(dateTime[4]), Number(dateTime[5]), Number(dateTime[6] ?? '0')];
  if (!isRealDate(year, month, day) || hour > 23 || minute > 59 || second > 59) return null;
  const millis = Number((dateTime[7] ?? '0').padEnd(3, '0'));
  const offset = dateTime[8] ?? 'Z';
  let offsetMinutes = 0;
  if (offset !== 'Z') {
    const sign = offset.startsWith('-') ? -1 : 1;
    const offHours = Number(offset.slice(1, 3));
    const offMinutes = Number(offset.slice(4, 6));
    if (offHours > 23 || offMinutes > 59) return null;
    offsetMinutes = sign * (offHours * 60 + offMinutes);
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
