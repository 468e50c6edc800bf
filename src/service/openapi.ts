import { z } from 'zod';
import { REQUESTS } from './routes';

const error = {
  description: 'Refused, with a code and words for it (never a stack trace)',
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
};

const post = (summary: string, request: z.ZodType, ok: string) => ({
  post: {
    summary,
    requestBody: {
      required: true,
      content: { 'application/json': { schema: z.toJSONSchema(request, { io: 'input' }) } },
    },
    responses: {
      '200': { description: ok },
      ...Object.fromEntries(['400', '405', '413', '415', '421', '422', '500'].map((status) => [status, error])),
    },
  },
});

/** The API's OpenAPI 3.1 document, served at /api/openapi.json; request schemas are the ones the service enforces. */
export function openApiDocument(version: string) {
  return {
    openapi: '3.1.0',
    info: {
      title: 'Context Compiler local API',
      version,
      description: 'Stateless: every request carries its inputs; nothing is kept between requests.',
    },
    paths: {
      '/api/health': {
        get: {
          summary: 'The service is up, and its version',
          responses: { '200': { description: '{ status: "ok", version }' } },
        },
      },
      '/api/scenarios': {
        get: { summary: 'The built-in scenario ids', responses: { '200': { description: '{ scenarios: [id] }' } } },
      },
      '/api/openapi.json': { get: { summary: 'This document', responses: { '200': { description: 'OpenAPI 3.1' } } } },
      '/api/compile': post(
        'Compile a contract with records, or a built-in scenario with controls and late changes',
        REQUESTS.compile,
        'The outcome (packet or fail_closed), the packet text, the receipt (diagnostic view) and the ' +
          'user-view document',
      ),
      '/api/drill': post(
        'Judge a receipt against the current inputs (the fire drill)',
        REQUESTS.drill,
        'The verdict: action, code, message, and the diff when stale',
      ),
      '/api/diff': post('What changed between two receipts', REQUESTS.diff, 'The diff'),
      '/api/test': post(
        'Run an expectation suite against the inputs given',
        REQUESTS.test,
        'Passed and failed counts and every case with its mismatches',
      ),
    },
    components: {
      schemas: {
        Error: {
          type: 'object',
          required: ['error'],
          properties: {
            error: {
              type: 'object',
              required: ['code', 'message', 'words'],
              properties: {
                code: { type: 'string' },
                message: { type: 'string' },
                words: {
                  type: 'object',
                  description: "The catalogue's message code and the arguments the message words",
                  required: ['code', 'args'],
                  properties: { code: { type: 'string' }, args: { type: 'object' } },
                  additionalProperties: false,
                },
                phase: { type: 'string' },
                issues: { type: 'array' },
              },
            },
          },
        },
      },
    },
  };
}
