import { z } from 'zod';
import { recordSchema } from './record';
import { parseRecordInput } from './record-parser.generated';

/**
 * `recordSchema` with zod's ahead-of-time compiled parser installed (`z.withParser`). The generated code
 * (`record-parser.generated.ts`, written from the schema by `scripts/generate-record-parser.ts`) returns a
 * valid record without zod's interpreter, which reading a large JSONL file spends most of its validation
 * time in; whatever it refuses is parsed again by `recordSchema` itself, so every issue, path and message
 * is zod's own. The code is a plain module because the app never compiles strings (jitless zod).
 */
export const compiledRecordSchema = z.withParser(recordSchema, parseRecordInput);
