import { z } from 'zod';
import type { CompileError, Result } from '../core/errors';
import { ATTESTATIONS, type Attestation } from '../core/result';
import type { ContextCompilerApi, Inputs, ScenarioInputs } from '../lib/api';
import { serviceError, serviceErrorBody, type ServiceError } from './service-errors';

/** A built-in scenario by id: its scenario file's text and the record files it names. */
export interface BuiltinScenario {
  readonly scenario: string;
  readonly files: Readonly<Record<string, string>>;
}

/**
 * What the routes need from outside: the library's functions, and the built-in scenarios (read from disk by the
 * caller).
 */
export interface RouteContext {
  readonly api: ContextCompilerApi;
  readonly builtinIds: readonly string[];
  readonly readBuiltin: (id: string) => Promise<BuiltinScenario | null>;
}

export interface RouteAnswer {
  readonly status: number;
  readonly body: unknown;
}

const id = z.string().min(1).max(200);
const switches = { controls: z.array(id).max(100).optional(), lateChanges: z.array(id).max(100).optional() };
const view = z.enum(['diagnostic', 'user']).optional();
const attestation = z.enum(ATTESTATIONS).optional();
const document = z.union([z.string(), z.record(z.string(), z.unknown())]);
const records = z.union([z.string(), z.array(z.unknown())]);
const ownInputs = { contract: document, records };
const builtin = { scenario: id, ...switches };

/** Request bodies: strict (an unknown field is refused), so a misspelt field never silently means its default. */
export const REQUESTS = {
  compile: z.union([
    z.strictObject({ ...ownInputs, view, attestation }),
    z.strictObject({ ...builtin, view, attestation }),
  ]),
  drill: z.union([
    z.strictObject({ ...ownInputs, receipt: document, declaredChanges: z.array(id).max(100).optional() }),
    z.strictObject({ ...builtin, receipt: document, declaredChanges: z.array(id).max(100).optional() }),
  ]),
  diff: z.strictObject({ before: document, after: document }),
  test: z.union([z.strictObject({ ...ownInputs, suite: document }), z.strictObject({ scenario: id, suite: document })]),
} as const;

type RouteName = keyof typeof REQUESTS;

const fromCompileError = (error: CompileError): RouteAnswer => ({
  status: 422,
  body: {
    error: {
      code: error.code,
      phase: error.pass,
      message: error.message,
      words: error.words,
      issues: error.issues ?? [],
    },
  },
});

const fromServiceError = (error: ServiceError): RouteAnswer => ({
  status: error.status,
  body: serviceErrorBody(error),
});

const answer = <T>(result: Result<T, CompileError>): RouteAnswer =>
  result.ok ? { status: 200, body: result.value } : fromCompileError(result.error);

/**
 * A built-in scenario named by id, with the switches asked for; its files come from the caller's reader, never from a
 * path in the request.
 */
async function scenarioInputs(
  context: RouteContext,
  body: { scenario: string; controls?: readonly string[] | undefined; lateChanges?: readonly string[] | undefined },
): Promise<ScenarioInputs | ServiceError> {
  const found = context.builtinIds.includes(body.scenario) ? await context.readBuiltin(body.scenario) : null;
  if (found === null)
    return serviceError('UNKNOWN_SCENARIO', { scenario: body.scenario, known: context.builtinIds.join(', ') });
  return {
    scenario: found.scenario,
    files: found.files,
    controls: body.controls ?? [],
    lateChanges: body.lateChanges ?? [],
  };
}

async function inputsOf(
  context: RouteContext,
  body: Record<string, unknown>,
): Promise<Inputs | ScenarioInputs | ServiceError> {
  if (typeof body.scenario === 'string') return scenarioInputs(context, body as { scenario: string });
  return { contract: body.contract as Inputs['contract'], records: body.records as Inputs['records'] };
}

const isServiceError = (value: object): value is ServiceError => 'status' in value && 'code' in value;

/** The POST routes, each a plain function of its parsed body: nothing is kept between requests. */
const HANDLERS: Record<RouteName, (context: RouteContext, body: Record<string, unknown>) => Promise<RouteAnswer>> = {
  async compile(context, body) {
    const inputs = await inputsOf(context, body);
    if (isServiceError(inputs)) return fromServiceError(inputs);
    return answer(
      await context.api.compile({
        ...inputs,
        view: (body.view as 'diagnostic' | 'user' | undefined) ?? 'diagnostic',
        attestation: (body.attestation as Attestation | undefined) ?? 'full',
      }),
    );
  },
  async drill(context, body) {
    const inputs = await inputsOf(context, body);
    if (isServiceError(inputs)) return fromServiceError(inputs);
    const declaredChanges = (body.declaredChanges as string[] | undefined) ?? [];
    return answer(await context.api.drill({ ...inputs, receipt: body.receipt as string | object, declaredChanges }));
  },
  async diff(context, body) {
    return answer(await context.api.diff(body.before as string | object, body.after as string | object));
  },
  async test(context, body) {
    const inputs = await inputsOf(context, body);
    if (isServiceError(inputs)) return fromServiceError(inputs);
    const ran = await context.api.runSuite({ ...inputs, suite: body.suite as string | object });
    if (!ran.ok) return fromCompileError(ran.error);
    const failed = ran.value.cases.filter((entry) => !entry.passed).length;
    return { status: 200, body: { passed: ran.value.cases.length - failed, failed, ...ran.value } };
  },
};

export function isRoute(name: string): name is RouteName {
  return Object.hasOwn(REQUESTS, name);
}

/** Validates a parsed JSON body for one route and runs it. */
export async function runRoute(context: RouteContext, name: RouteName, body: unknown): Promise<RouteAnswer> {
  const parsed = REQUESTS[name].safeParse(body);
  if (!parsed.success) {
    const issues = parsed.error.issues
      .slice(0, 20)
      .map((issue) => ({ path: issue.path.map(String).join('.') || '(body)', message: issue.message }));
    const refused = serviceError('INVALID_REQUEST', { route: name });
    return { status: refused.status, body: serviceErrorBody(refused, { issues }) };
  }
  return HANDLERS[name](context, parsed.data as Record<string, unknown>);
}
