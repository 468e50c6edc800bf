/**
 * The local service's own refusals (the request, not the compile: a compile's errors keep the core's codes
 * and words). One catalogue: each code its HTTP status and its wording of the arguments.
 */
const CATALOGUE = {
  INVALID_REQUEST: {
    status: 400,
    words: ({ route }: { route: string }) =>
      `The ${route} request does not have the documented shape (see /api/openapi.json).`,
  },
  INVALID_JSON: { status: 400, words: () => 'The request body is not JSON.' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, words: () => 'Send the request body as application/json.' },
  REQUEST_TOO_LARGE: {
    status: 413,
    words: ({ limit }: { limit: number }) =>
      `The request body is over ${limit} bytes (serve --max-body raises the limit).`,
  },
  NOT_FOUND: { status: 404, words: ({ path }: { path: string }) => `Nothing is served at ${path}.` },
  METHOD_NOT_ALLOWED: {
    status: 405,
    words: ({ method, allowed }: { method: string; allowed: string }) =>
      `${method} is not allowed here; use ${allowed}.`,
  },
  UNKNOWN_SCENARIO: {
    status: 422,
    words: ({ scenario, known }: { scenario: string; known: string }) =>
      `No built-in scenario is called ${JSON.stringify(scenario)}; the built-in ones are ${known}.`,
  },
  HOST_NOT_ALLOWED: {
    status: 421,
    words: () => 'This service answers only requests addressed to the host it listens on.',
  },
  APP_NOT_BUILT: {
    status: 404,
    words: () => 'The app is not built here: run `npm run build` in the clone (an installed package ships it built).',
  },
  INTERNAL: {
    status: 500,
    words: () => 'The service stopped on this request; nothing was kept. Try again, or report it with the request.',
  },
} as const;

export type ServiceErrorCode = keyof typeof CATALOGUE;
type ArgsOf<C extends ServiceErrorCode> = Parameters<(typeof CATALOGUE)[C]['words']>[0];

export interface ServiceError {
  readonly status: number;
  readonly code: ServiceErrorCode;
  readonly message: string;
}

export function serviceError<C extends ServiceErrorCode>(
  code: C,
  ...args: ArgsOf<C> extends undefined ? [] : [ArgsOf<C>]
): ServiceError {
  const entry = CATALOGUE[code];
  return { status: entry.status, code, message: (entry.words as (given: unknown) => string)(args[0]) };
}
