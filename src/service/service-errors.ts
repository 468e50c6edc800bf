import { wordsText, type MessageArgList, type MessageWords } from '../core/messages';

/**
 * The local service's own refusals (the request, not the compile: a compile's errors keep the core's codes
 * and words): each code its HTTP status here, its wording in the one catalogue of messages.
 */
const STATUS = {
  INVALID_REQUEST: 400,
  INVALID_JSON: 400,
  UNSUPPORTED_MEDIA_TYPE: 415,
  REQUEST_TOO_LARGE: 413,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  UNKNOWN_SCENARIO: 422,
  HOST_NOT_ALLOWED: 421,
  APP_NOT_BUILT: 404,
  INTERNAL: 500,
} as const;

export type ServiceErrorCode = keyof typeof STATUS;

export interface ServiceError {
  readonly status: number;
  readonly code: ServiceErrorCode;
  readonly message: string;
  /** The catalogue's code and arguments the message words. */
  readonly words: MessageWords;
}

export function serviceError<C extends ServiceErrorCode>(code: C, ...args: MessageArgList<C>): ServiceError {
  const words = { code, args: args[0] ?? {} } as MessageWords;
  return { status: STATUS[code], code, message: wordsText(words), words };
}

/** A refusal as the service answers it: the code, the message and the words, and any further fields (`issues`). */
export function serviceErrorBody(error: ServiceError, more: Readonly<Record<string, unknown>> = {}) {
  return { error: { code: error.code, message: error.message, words: error.words, ...more } };
}
