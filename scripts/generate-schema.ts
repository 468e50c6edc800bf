import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { z } from 'zod';
import { contractSchema, principalSchema, propositionSchema } from '../src/core/format/contract';
import {
  expectationCaseSchema,
  expectationSchema,
  expectationSuiteSchema,
  reasonCodeSchema,
} from '../src/core/format/expectation';
import { receiptSchema } from '../src/core/format/receipt';
import { idSchema } from '../src/core/format/identifier';
import { instantSchema, recordSchema } from '../src/core/format/record';
import {
  controlSchema,
  mergePatchSchema,
  patchSchema,
  RESERVED_KEYS,
  scenarioSchema,
} from '../src/core/format/scenario';
import { userViewExportSchema } from '../src/core/format/user-view-export';

/** Mirrors the two shapes `parseInstant` accepts; the calendar check itself cannot be said in JSON Schema. */
const INSTANT_PATTERN = '^\\d{4}-\\d{2}-\\d{2}(T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,3})?)?(Z|[+-]\\d{2}:\\d{2}))?$';

/** Parts used more than once get a readable name under `$defs` instead of being repeated inline. */
const NAMED_PARTS = [
  [idSchema, 'recordId'],
  [instantSchema, 'instant'],
  [recordSchema, 'record'],
  [contractSchema, 'contract'],
  [principalSchema, 'principal'],
  [propositionSchema, 'proposition'],
  [patchSchema, 'patch'],
  [controlSchema, 'change'],
  [reasonCodeSchema, 'reasonCode'],
  [expectationCaseSchema, 'case'],
  [expectationSchema, 'expectation'],
] as const;

const SCHEMAS = [
  {
    file: 'record.schema.json',
    title: 'Context Compiler record',
    description: 'One line of a records JSONL file.',
    schema: recordSchema,
  },
  {
    file: 'contract.schema.json',
    title: 'Context Compiler contract',
    description: 'The task contract: who asks, for what purpose, as of when, and what may be admitted.',
    schema: contractSchema,
  },
  {
    file: 'scenario.schema.json',
    title: 'Context Compiler scenario',
    description: 'A contract, its records (inline or a sibling .jsonl file), controls and late changes.',
    schema: scenarioSchema,
  },
  {
    file: 'receipt.schema.json',
    title: 'Context Compiler receipt',
    description: 'A saved receipt; its receiptId is the SHA-256 of the canonical JSON of every other field.',
    schema: receiptSchema,
  },
  {
    file: 'expectation.schema.json',
    title: 'Context Compiler expectation suite',
    description:
      'A *.expect.json file: inputs, and cases that say what the compiler must decide (context-compiler test).',
    schema: expectationSuiteSchema,
  },
  {
    file: 'user-view.schema.json',
    title: 'Context Compiler user-view export',
    description: 'What the app exports from its user view: not a receipt; withheld records are counted, never named.',
    schema: userViewExportSchema,
  },
] as const;

/**
 * The JSON Schema files, keyed by file name. Input side: a field with a default may be omitted from a file,
 * so the schema must not list it as required.
 */
export function renderSchemaFiles(): Map<string, string> {
  const files = new Map<string, string>();
  for (const { file, title, description, schema } of SCHEMAS) {
    const names = z.registry<{ id: string }>();
    for (const [part, id] of NAMED_PARTS) if (part !== schema) names.add(part, { id });
    const json = z.toJSONSchema(schema, {
      io: 'input',
      metadata: names,
      override: (context) => {
        if (context.zodSchema === mergePatchSchema) {
          // The input side of the pipe is `unknown`; say what it takes: an object whose keys are not reserved.
          Object.assign(context.jsonSchema, {
            type: 'object',
            propertyNames: { type: 'string', not: { enum: [...RESERVED_KEYS] } },
            additionalProperties: {},
          });
          return;
        }
        if (context.zodSchema !== instantSchema) return;
        context.jsonSchema.pattern = INSTANT_PATTERN;
        context.jsonSchema.description =
          'A date (2026-08-30, start of that UTC day; end of day for validTo) or a date-time with an explicit offset.';
      },
    });
    const { $schema, ...body } = json;
    files.set(file, `${JSON.stringify({ $schema, $id: file, title, description, ...body }, null, 2)}\n`);
  }
  return files;
}

export const SCHEMA_FOLDER = fileURLToPath(new URL('../public/schema/', import.meta.url));

function writeSchemaFiles(): void {
  mkdirSync(SCHEMA_FOLDER, { recursive: true });
  for (const [file, text] of renderSchemaFiles()) {
    writeFileSync(`${SCHEMA_FOLDER}${file}`, text);
    console.log(`wrote public/schema/${file}`);
  }
}

// Imported by the drift test, run by `npm run schema`: only the latter writes.
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) writeSchemaFiles();
