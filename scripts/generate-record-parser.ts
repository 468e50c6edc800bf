import { writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { z } from 'zod';
import { recordSchema } from '../src/core/format/record';

/**
 * Writes zod's own ahead-of-time compiled parser for `recordSchema` as a module.
 *
 * zod 4 compiles a schema into one straight-line function (`compileFn`), but it builds that function with
 * `new Function`, which the app never does. `z.withParser` is zod's way to install a parser produced ahead
 * of time instead: this script captures the code zod generates and the values it binds into it (the
 * schema's regexes, refinements, enum sets and defaults, and a few zod helpers), and writes both out as
 * plain source, each bound value as the expression that reaches it from `recordSchema` or zod's exports.
 * Nothing is written by hand: a drift test fails when the module differs from what this renders.
 */

export const RECORD_PARSER_FILE = fileURLToPath(
  new URL('../src/core/format/record-parser.generated.ts', import.meta.url),
);

interface Captured {
  readonly names: readonly string[];
  readonly body: string;
  readonly values: readonly unknown[];
}

/** Runs zod's compiler with `Function` stood in for, keeping the code and the bound values it is given. */
function captureCompiled(schema: z.ZodType): Captured {
  const real = globalThis.Function;
  let names: string[] = [];
  let body = '';
  let values: unknown[] = [];
  const standIn = function (...parameters: string[]) {
    body = parameters.pop() ?? '';
    names = parameters;
    return (...bound: unknown[]) => {
      values = bound;
      return () => z.INVALID;
    };
  };
  globalThis.Function = standIn as unknown as FunctionConstructor;
  try {
    z.core.compileFn(schema);
  } finally {
    globalThis.Function = real;
  }
  if (names.length === 0 || names.length !== values.length)
    throw new Error('zod did not compile the record schema the way this generator expects');
  return { names, body, values };
}

interface Reachable {
  /** Bound values found in the schema (regexes, refinements, enum sets), with the expression that reaches each. */
  readonly values: Map<unknown, string>;
  /** Every `.default()` schema's def, with the expression for the schema. */
  readonly defaults: Map<Record<string, unknown>, string>;
}

/** Walks a schema the way zod's compiler does (shape, inner and element types, checks). */
function reachable(schema: z.core.$ZodType, path: string, out: Reachable): void {
  const add = (value: unknown, expression: string) => {
    if (value !== null && (typeof value === 'object' || typeof value === 'function') && !out.values.has(value))
      out.values.set(value, expression);
  };
  const def = schema._zod.def as unknown as Record<string, unknown>;
  add(schema._zod.values, `${path}._zod.values`);
  const checks = (def.checks ?? []) as z.core.$ZodCheck[];
  checks.forEach((check, index) => {
    const checkDef = check._zod.def as unknown as Record<string, unknown>;
    for (const key of ['pattern', 'fn']) add(checkDef[key], `${path}._zod.def.checks[${index}]._zod.def.${key}`);
  });
  if (def.type === 'default') out.defaults.set(def, path);
  if (def.type === 'object') {
    for (const [key, child] of Object.entries(def.shape as Record<string, z.core.$ZodType>))
      reachable(child, `${path}._zod.def.shape[${JSON.stringify(key)}]`, out);
  }
  for (const key of ['innerType', 'element']) {
    const child = def[key] as z.core.$ZodType | undefined;
    if (child) reachable(child, `${path}._zod.def.${key}`, out);
  }
}

/**
 * Which `.default()` schema a getter zod made for the compiled code reads (`() => schema._zod.def.defaultValue`):
 * each default's value is briefly replaced by a marker naming its schema, and the getter is asked.
 */
function defaultSchemaOf(
  getter: () => unknown,
  defaults: ReadonlyMap<Record<string, unknown>, string>,
): string | undefined {
  const saved = [...defaults.keys()].map((def) => [def, Object.getOwnPropertyDescriptor(def, 'defaultValue')] as const);
  try {
    for (const [def, path] of defaults)
      Object.defineProperty(def, 'defaultValue', { value: { marker: path }, configurable: true });
    const read = getter() as { marker?: unknown } | null;
    return typeof read?.marker === 'string' ? read.marker : undefined;
  } finally {
    for (const [def, descriptor] of saved) {
      if (descriptor) Object.defineProperty(def, 'defaultValue', descriptor);
    }
  }
}

/** The expression for one value zod bound into the compiled code; throws for a kind this generator does not know. */
function expressionFor(name: string, value: unknown, schema: Reachable): string {
  if (value === z.INVALID) return 'z.INVALID';
  const found = schema.values.get(value);
  if (found !== undefined) return found;
  if (typeof value === 'function') {
    const helper = Object.entries(z.util).find(([, exported]) => exported === value)?.[0];
    if (helper !== undefined) return `z.util.${helper}`;
    // zod's stand-in for an async refinement reached synchronously: the interpreter throws $ZodAsyncError there.
    if (value.name === 'throwAsync') return '() => {\n  throw new z.core.$ZodAsyncError();\n}';
    // A default's getter, made per compilation: it reads the default schema's own value.
    if (String(value) === '() => schema._zod.def.defaultValue') {
      const source = defaultSchemaOf(value as () => unknown, schema.defaults);
      if (source !== undefined) return `() => ${source}._zod.def.defaultValue`;
    }
  }
  throw new Error(
    `the compiled record parser binds ${name}, which this generator cannot write as source: extend scripts/generate-record-parser.ts`,
  );
}

/** The generated module's text. */
export function renderRecordParser(): string {
  const { names, body, values } = captureCompiled(recordSchema);
  const prefix = 'return (input) => {\n';
  const suffix = '\n}';
  if (!body.startsWith(prefix) || !body.endsWith(suffix) || names[0] !== 'INVALID')
    throw new Error('zod compiled the record schema into an unexpected shape');
  const code = body.slice(prefix.length, -suffix.length);
  const schema: Reachable = { values: new Map(), defaults: new Map() };
  reachable(recordSchema, 'recordSchema', schema);
  const constants = names
    .slice(1)
    .map((name, index) => `const ${name} = ${expressionFor(name, values[index + 1], schema)};`);
  return [
    '/* eslint-disable */',
    '// @ts-nocheck',
    "// Generated by `npx tsx scripts/generate-record-parser.ts` from recordSchema (./record.ts) with zod's own",
    '// compiler; do not edit. A test fails when this differs from what the script renders.',
    "import { z } from 'zod';",
    "import { recordSchema, type SourceRecord } from './record';",
    '',
    'const INVALID = z.INVALID;',
    ...constants,
    '',
    "/** recordSchema's compiled parser: the parsed record, or INVALID where zod's own parser must answer. */",
    'export function parseRecordInput(input: unknown): SourceRecord | typeof z.INVALID {',
    ...code.split('\n').map((line) => `  ${line}`),
    '}',
    '',
  ].join('\n');
}

// Imported by the drift test, run by hand after changing recordSchema: only the latter writes.
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  writeFileSync(RECORD_PARSER_FILE, renderRecordParser());
  console.log(`wrote ${RECORD_PARSER_FILE}`);
}
