import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatInstant, formatInstantShort, parseInstant } from './time';

describe('parseInstant', () => {
  it('reads a bare date as the start of that UTC day, or its last millisecond when it closes an interval', () => {
    expect(parseInstant('2026-08-28')).toBe(Date.UTC(2026, 7, 28));
    expect(parseInstant('2026-08-28', 'end')).toBe(Date.UTC(2026, 7, 29) - 1);
  });

  it('applies explicit offsets', () => {
    expect(parseInstant('2026-08-30T14:00:00+02:00')).toBe(Date.UTC(2026, 7, 30, 12));
    expect(parseInstant('2026-08-30T09:30-05:30')).toBe(Date.UTC(2026, 7, 30, 15));
    expect(parseInstant('2026-08-30T12:00:00.5Z')).toBe(Date.UTC(2026, 7, 30, 12, 0, 0, 500));
  });

  it('ignores the boundary for date-times', () => {
    expect(parseInstant('2026-08-30T12:00:00Z', 'end')).toBe(parseInstant('2026-08-30T12:00:00Z'));
  });

  it.each([
    '2026-02-30',
    '2025-02-29',
    '2026-13-01',
    '2026-08-30T24:00:00Z',
    '2026-08-30T12:60Z',
    '2026-08-30T12:00:60Z',
    '2026-08-30T12:00:00',
    '2026-08-30T12:00:00+24:00',
    '30/08/2026',
    '',
    '2026-8-30',
  ])('refuses %j', (text) => {
    expect(parseInstant(text)).toBeNull();
  });

  // Date.UTC maps the years 0-99 to 1900-1999; an instant's year is the year written.
  it.each([
    ['0001-01-01', '0001-01-01T00:00:00.000Z'],
    ['0099-12-31', '0099-12-31T00:00:00.000Z'],
    ['0100-01-01', '0100-01-01T00:00:00.000Z'],
    ['0000-01-01', '0000-01-01T00:00:00.000Z'],
    ['0042-05-01T12:30:15.250+02:00', '0042-05-01T10:30:15.250Z'],
    ['1999-12-31T23:59:59.999Z', '1999-12-31T23:59:59.999Z'],
    ['9999-12-31', '9999-12-31T00:00:00.000Z'],
  ])('reads %s in its own year', (text, iso) => {
    expect(formatInstant(parseInstant(text) ?? Number.NaN)).toBe(iso);
  });

  it('keeps the last millisecond of a day in the first century, and leap rules there', () => {
    expect(formatInstant(parseInstant('0099-12-31', 'end') ?? Number.NaN)).toBe('0099-12-31T23:59:59.999Z');
    expect(parseInstant('0004-02-29')).not.toBeNull();
    expect(parseInstant('0001-02-29')).toBeNull();
    expect(parseInstant('0099-02-29')).toBeNull();
    expect(parseInstant('0001-01-01T00:00+01:00')).toBe((parseInstant('0001-01-01') ?? 0) - 3_600_000);
  });

  it('accepts a real leap day', () => {
    expect(parseInstant('2028-02-29')).toBe(Date.UTC(2028, 1, 29));
  });
});

describe('formatInstantShort', () => {
  it('shows a day edge as the date alone and other instants in full', () => {
    expect(formatInstantShort(Date.UTC(2026, 7, 28))).toBe('2026-08-28');
    expect(formatInstantShort(Date.UTC(2026, 7, 29) - 1)).toBe('2026-08-28');
    expect(formatInstantShort(Date.UTC(2026, 7, 30, 12))).toBe('2026-08-30T12:00:00Z');
  });
});

/**
 * The instant as Date computes it (setUTCFullYear takes the year as written), or null when Date moves the day: the
 * reference parseInstant's arithmetic must agree with.
 */
function dateReference(
  year: number,
  month: number,
  day: number,
  hour: number,
  minute: number,
  second: number,
  millis: number,
): number | null {
  const probe = new Date(0);
  probe.setUTCFullYear(year, month - 1, day);
  if (probe.getUTCFullYear() !== year || probe.getUTCMonth() !== month - 1 || probe.getUTCDate() !== day) return null;
  probe.setUTCHours(hour, minute, second, millis);
  return probe.getTime();
}

describe('parseInstant against Date', () => {
  const pad = (value: number, width: number) => String(value).padStart(width, '0');
  it('agrees on every year 0000-9999, every month and day 1-31 (real or not), at any time of day', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 9999 }),
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: 1, max: 31 }),
        fc.integer({ min: 0, max: 23 }),
        fc.integer({ min: 0, max: 59 }),
        fc.integer({ min: 0, max: 59 }),
        fc.integer({ min: 0, max: 999 }),
        (year, month, day, hour, minute, second, millis) => {
          const date = `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}`;
          expect(parseInstant(date)).toBe(dateReference(year, month, day, 0, 0, 0, 0));
          expect(parseInstant(`${date}T${pad(hour, 2)}:${pad(minute, 2)}:${pad(second, 2)}.${pad(millis, 3)}Z`)).toBe(
            dateReference(year, month, day, hour, minute, second, millis),
          );
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('agrees on the leap days around the century rules', () => {
    for (const year of [0, 4, 100, 1900, 2000, 2024, 2100, 2400, 9996, 9999])
      expect(parseInstant(`${pad(year, 4)}-02-29`)).toBe(dateReference(year, 2, 29, 0, 0, 0, 0));
  });
});

/**
 * The grammar as a regular expression, and what a match means: the reference the character-level reader must agree
 * with.
 */
const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?(Z|[+-]\d{2}:\d{2})$/;

function grammarReference(text: string, boundary: 'start' | 'end'): number | null {
  const dateOnly = DATE_ONLY.exec(text);
  if (dateOnly) {
    const start = dateReference(Number(dateOnly[1]), Number(dateOnly[2]), Number(dateOnly[3]), 0, 0, 0, 0);
    return start === null || boundary === 'start' ? start : start + 86_400_000 - 1;
  }
  const match = DATE_TIME.exec(text);
  if (!match) return null;
  const [hour, minute, second] = [Number(match[4]), Number(match[5]), Number(match[6] ?? '0')];
  if (hour > 23 || minute > 59 || second > 59) return null;
  const local = dateReference(
    Number(match[1]),
    Number(match[2]),
    Number(match[3]),
    hour,
    minute,
    second,
    Number((match[7] ?? '0').padEnd(3, '0')),
  );
  const offset = match[8] ?? 'Z';
  if (local === null || offset === 'Z') return local;
  const [offHours, offMinutes] = [Number(offset.slice(1, 3)), Number(offset.slice(4, 6))];
  if (offHours > 23 || offMinutes > 59) return null;
  return local - (offset.startsWith('-') ? -1 : 1) * (offHours * 60 + offMinutes) * 60_000;
}

describe('parseInstant against the grammar', () => {
  it('reads exactly what the regular expression of the grammar matches, near misses included', () => {
    let read = 0;
    /**
     * A number of `width` digits up to `max`, now and then written with too few or too many digits, or not in ASCII.
     */
    const field = (width: number, max: number) =>
      fc.oneof(
        { arbitrary: fc.integer({ min: 0, max }).map((value) => String(value).padStart(width, '0')), weight: 12 },
        { arbitrary: fc.integer({ min: 0, max: 9 }).map(String), weight: 1 },
        {
          arbitrary: fc.integer({ min: 0, max: 99_999 }).map((value) => String(value).padStart(width + 1, '0')),
          weight: 1,
        },
        { arbitrary: fc.constant('٣'.repeat(width)), weight: 1 },
      );
    const often = (usual: string, ...others: string[]) =>
      fc.oneof({ arbitrary: fc.constant(usual), weight: 10 }, { arbitrary: fc.constantFrom('', ...others), weight: 1 });
    const optional = (piece: fc.Arbitrary<string>) => fc.oneof(fc.constant(''), piece);
    const fraction = fc
      .tuple(often('.', ','), field(1, 9), optional(field(1, 9)), optional(field(1, 9)), optional(field(1, 9)))
      .map((parts) => parts.join(''));
    const seconds = fc.tuple(often(':', '.'), field(2, 69), optional(fraction)).map((parts) => parts.join(''));
    const offset = fc.oneof(
      often('Z', 'z', 'ZZ'),
      fc.tuple(fc.constantFrom('+', '-', '−'), field(2, 29), often(':'), field(2, 69)).map((parts) => parts.join('')),
    );
    const time = fc
      .tuple(often('T', 't', ' '), field(2, 29), often(':'), field(2, 69), optional(seconds), offset)
      .map((parts) => parts.join(''));
    const instantLike = fc
      .tuple(
        field(4, 9999),
        often('-', '/'),
        field(2, 13),
        often('-', ':'),
        field(2, 32),
        optional(time),
        fc.oneof({ arbitrary: fc.constant(''), weight: 10 }, { arbitrary: fc.constantFrom(' ', 'x', '0'), weight: 1 }),
      )
      .map((parts) => parts.join(''));
    fc.assert(
      fc.property(instantLike, fc.constantFrom('start', 'end'), (text, boundary) => {
        const expected = grammarReference(text, boundary);
        if (expected !== null) read += 1;
        expect(parseInstant(text, boundary)).toBe(expected);
      }),
      { numRuns: 20_000 },
    );
    // Most of what is generated is a near miss; enough must be read (about one in six) for the comparison to say much.
    expect(read).toBeGreaterThan(2_000);
  });
});
