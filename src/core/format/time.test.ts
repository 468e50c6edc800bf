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
