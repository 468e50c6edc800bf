import { APP_MESSAGES } from './messages-app';
import { CLI_MESSAGES } from './messages-cli';
import { COMPILE_MESSAGES } from './messages-compile';
import { INPUT_MESSAGES } from './messages-inputs';

/**
 * What a refusal, a notice or a status line says, by code: every message that is not a trace fact (`FACTS`) or an
 * input issue (`ISSUES`) is a code and its arguments, worded only here. An argument named `reason`, `problem` or
 * `detail` carries wording from outside this catalogue: a thrown error's, a driver's, zod's, or one the catalogue
 * itself made (an issue's message, a fact rendered), never a sentence written where the message is made.
 *
 * The catalogue is one table kept in files by area; a code is worded by exactly one of them (messages.test.ts).
 */
export const MESSAGES = { ...INPUT_MESSAGES, ...COMPILE_MESSAGES, ...CLI_MESSAGES, ...APP_MESSAGES } as const;

export type MessageCode = keyof typeof MESSAGES;
type MessageArgs<C extends MessageCode> = Parameters<(typeof MESSAGES)[C]>;
/** The arguments a code is worded with, as a call passes them: none for a message that takes none. */
export type MessageArgList<C extends MessageCode> = MessageArgs<C> extends [] ? [] : [MessageArgs<C>[0]];

/**
 * A message as data: its code and the arguments the catalogue words it with (`{}` for one that takes none), so a
 * caller can read, compare or redact by argument, and `wordMessage(code, args)` is its text.
 */
export type MessageWords = {
  readonly [C in MessageCode]: {
    readonly code: C;
    readonly args: MessageArgs<C> extends [] ? Readonly<Record<string, never>> : MessageArgs<C>[0];
  };
}[MessageCode];

/** A message in words: the catalogue's wording of the code with its arguments. */
export function wordMessage<C extends MessageCode>(code: C, ...[args]: MessageArgList<C>): string {
  return (MESSAGES[code] as (given: unknown) => string)(args);
}

/** The text of a message carried as data. */
export function wordsText(words: MessageWords): string {
  return (MESSAGES[words.code] as (given: unknown) => string)(words.args);
}

/** An error's own words (a driver's, the file system's): wording from outside the catalogue, passed as an argument. */
export function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
