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

  it.each(['2026-02-30', '2025-02-29', '2026-13-01', '2026-08-30T24:00:00Z', '2026-08-30T12:60Z', '2026-08-30T12:00:60Z', '2026-08-30T12:00:00', '2026-08-30T12:00:00+24:00', '30/08/2026', '', '2026-8-30'])(
    'refuses %j',
    (text) => {
      expect(parseInstant(text)).toBeNull();
    },
  );

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

/** The instant as Date computes it (setUTCFullYear takes the year as written), or null when Date moves the day: the reference parseInstant's arithmetic must agree with. */
function dateReference(year: number, month: number, day: number, hour: number, minute: number, second: number, millis: number): number | null {
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
          expect(parseInstant(`${date}T${pad(hour, 2)}:${pad(minute, 2)}:${pad(second, 2)}.${pad(millis, 3)}Z`)).toBe(dateReference(year, month, day, hour, minute, second, millis));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('agrees on the leap days around the century rules', () => {
    for (const year of [0, 4, 100, 1900, 2000, 2024, 2100, 2400, 9996, 9999]) expect(parseInstant(`${pad(year, 4)}-02-29`)).toBe(dateReference(year, 2, 29, 0, 0, 0, 0));
  });
});

