import type pg from 'pg';

/** PostgreSQL's type id of `text[]`, the type of every list column (roles, purposes, labels, claims, supersedes). */
const TEXT_ARRAY = 1009;
/** And of `integer[]`: an answer's phrases of each scored record. */
const INTEGER_ARRAY = 1007;

/** The readers of one driver's `text[]` and `integer[]`, and its type parsers with them in place of its own. */
export interface LayoutTypes {
  readonly parseTextArray: (text: string) => (string | null)[] | null;
  readonly parseIntegerArray: (text: string) => (number | null)[] | null;
  /** Given to each connection this adapter opens. */
  readonly getTypeParser: typeof pg.types.getTypeParser;
}

export function layoutTypes(driverTypes: typeof pg.types): LayoutTypes {
  /** The driver's parsers by type id: its typings list only the ids of scalar types. */
  const driverParser = driverTypes.getTypeParser as (oid: number, format?: 'text' | 'binary') => unknown;
  const parseAnyTextArray = driverParser(TEXT_ARRAY, 'text') as (text: string) => (string | null)[] | null;
  const parseAnyIntegerArray = driverParser(INTEGER_ARRAY, 'text') as (text: string) => (number | null)[] | null;

  /**
   * A `text[]` as the server prints it, read as the driver reads it, faster for the lists a layout holds. The server
   * quotes an element that is empty, holds a brace, a comma, a quote, a backslash or white space, or is NULL in any
   * case; with no quote and no inner brace, the elements are the text between the commas unless one is a bare NULL (a
   * null element). Anything else goes to the driver's parser, which reads every form character by character, as it
   * would read each admitted row's five lists (docs/ADAPTERS.md gives the difference measured).
   */
  function parseTextArray(text: string): (string | null)[] | null {
    if (text.length < 2 || text[0] !== '{' || text.includes('"') || text.indexOf('{', 1) !== -1)
      return parseAnyTextArray(text);
    if (text === '{}') return [];
    const elements = text.slice(1, -1).split(',');
    for (const element of elements)
      if (element.length === 4 && element.toUpperCase() === 'NULL') return parseAnyTextArray(text);
    return elements;
  }

  /** An `integer[]` as the server prints it, read as the driver reads it: signed digits between commas, or a NULL. */
  function parseIntegerArray(text: string): (number | null)[] | null {
    if (text.length < 2 || text[0] !== '{' || text.includes('N') || text.indexOf('{', 1) !== -1)
      return parseAnyIntegerArray(text);
    return text === '{}' ? [] : text.slice(1, -1).split(',').map(Number);
  }

  const getTypeParser = ((oid: number, format?: 'text' | 'binary') =>
    format === 'binary'
      ? driverParser(oid, format)
      : oid === TEXT_ARRAY
        ? parseTextArray
        : oid === INTEGER_ARRAY
          ? parseIntegerArray
          : driverParser(oid, format)) as typeof pg.types.getTypeParser;
  return { parseTextArray, parseIntegerArray, getTypeParser };
}
