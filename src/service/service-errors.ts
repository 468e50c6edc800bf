import { MESSAGES } from '../core/messages';

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
type ArgsOf<C extends ServiceErrorCode> = Parameters<(typeof MESSAGES)[C]>[0];

export interface ServiceError {
  readonly status: number;
  readonly code: ServiceErrorCode;
  readonly message: string;
}

export function serviceError<C extends ServiceErrorCode>(
  code: C,
  ...args: ArgsOf<C> extends undefined ? [] : [ArgsOf<C>]
): ServiceError {
  return { status: STATUS[code], code, message: (MESSAGES[code] as (given: unknown) => string)(args[0]) };
}
