import { sha256 } from '../core/test-support/sha256';
import { mkdtempSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { get as httpGet } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { wordsText, type MessageWords } from '../core/messages';
import { createApi } from '../lib/api';
import { openInMemoryDatabase } from '../sqlite/load-sqlite';
import { z } from 'zod';
import { startService, type RunningService } from './http';

const fixture = (name: string) => readFileSync(new URL(`../../fixtures/retry-policy/${name}`, import.meta.url), 'utf8');
const builtin = { scenario: fixture('scenario.json'), files: { 'records.jsonl': fixture('records.jsonl') } };
const contract = (JSON.parse(builtin.scenario) as { contract: object }).contract;

let service: RunningService;
const appDir = mkdtempSync(join(tmpdir(), 'cc-app-'));

beforeAll(async () => {
  writeFileSync(join(appDir, 'index.html'), '<!doctype html><title>app</title>');
  mkdirSync(join(appDir, 'assets'));
  writeFileSync(join(appDir, 'assets', 'main-abc.js'), 'export {};');
  writeFileSync(join(tmpdir(), 'outside.txt'), 'outside the app folder');
  service = await startService({
    api: createApi({ sha256, openDatabase: openInMemoryDatabase }),
    builtinIds: ['retry-policy'],
    readBuiltin: async (id) => (id === 'retry-policy' ? builtin : null),
    host: '127.0.0.1',
    port: 0,
    appDir,
    corsOrigin: null,
    maxBodyBytes: 1024 * 1024,
    timeouts: { headersMs: 400, requestMs: 2_000 },
  });
});
afterAll(() => service.close());

const post = (route: string, body: unknown, headers: Record<string, string> = { 'content-type': 'application/json' }) =>
  fetch(new URL(`api/${route}`, service.url), {
    method: 'POST',
    headers,
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });

/** fetch sets the Host header itself; a page reaching the service through another name sends its own. */
function getWithHost(path: string, host: string): Promise<Response> {
  return new Promise((resolve, reject) => {
    const request = httpGet(new URL(path, service.url), { headers: { host } }, (answer) => {
      let text = '';
      answer.on('data', (chunk: Buffer) => (text += chunk.toString()));
      answer.on('end', () => resolve(new Response(text, { status: answer.statusCode ?? 0 })));
    });
    request.on('error', reject);
  });
}

async function errorOf(response: Response): Promise<{ status: number; code: string; text: string }> {
  const text = await response.text();
  return { status: response.status, code: (JSON.parse(text) as { error: { code: string } }).error.code, text };
}

/**
 * A refusal as the served OpenAPI document describes it (its Error schema, read from the service itself), with
 * words the catalogue turns into its message.
 */
async function expectDocumentedError(text: string): Promise<void> {
  const document = (await (await fetch(new URL('api/openapi.json', service.url))).json()) as {
    components: { schemas: { Error: z.core.JSONSchema.JSONSchema } };
  };
  const body: unknown = JSON.parse(text);
  expect(z.fromJSONSchema(document.components.schemas.Error).safeParse(body).error?.issues ?? []).toEqual([]);
  const { error } = body as { error: { message: string; words: MessageWords } };
  expect(wordsText(error.words)).toBe(error.message);
}

describe('the local service', () => {
  it('answers health, the scenario list and its OpenAPI document', async () => {
    const health = await fetch(new URL('api/health', service.url));
    expect(await health.json()).toMatchObject({ status: 'ok' });
    expect(health.headers.get('access-control-allow-origin')).toBeNull();
    expect(await (await fetch(new URL('api/scenarios', service.url))).json()).toEqual({ scenarios: ['retry-policy'] });
    const openapi = (await (await fetch(new URL('api/openapi.json', service.url))).json()) as {
      openapi: string;
      paths: Record<string, unknown>;
    };
    expect(openapi.openapi).toBe('3.1.0');
    expect(Object.keys(openapi.paths)).toEqual(
      expect.arrayContaining(['/api/compile', '/api/drill', '/api/diff', '/api/test']),
    );
  });

  it('compiles a built-in scenario and the same inputs given in the body to one receipt, and drills it', async () => {
    const byId = (await (await post('compile', { scenario: 'retry-policy' })).json()) as {
      status: string;
      receipt: { receiptId: string };
      receiptText: string;
    };
    expect(byId.status).toBe('packet');
    const given = (await (await post('compile', { contract, records: builtin.files['records.jsonl'] })).json()) as {
      receipt: { receiptId: string };
    };
    expect(given.receipt.receiptId).toBe(byId.receipt.receiptId);
    const drilled = (await (await post('drill', { scenario: 'retry-policy', receipt: byId.receiptText })).json()) as {
      code: string;
    };
    expect(drilled.code).toBe('RECEIPT_CURRENT');
    const stale = (await (
      await post('drill', {
        scenario: 'retry-policy',
        lateChanges: ['promote-run-0880'],
        declaredChanges: ['promote-run-0880'],
        receipt: byId.receiptText,
      })
    ).json()) as {
      action: string;
    };
    expect(stale.action).toBe('recompile_required');
  });

  it('attests candidates when the body asks, and the drill reperforms that receipt; an unknown kind is refused', async () => {
    const full = (await (await post('compile', { scenario: 'retry-policy' })).json()) as {
      receipt: { attestation: string; trace: unknown[] };
    };
    const asked = (await (await post('compile', { scenario: 'retry-policy', attestation: 'candidates' })).json()) as {
      receipt: { attestation: string; trace: unknown[]; omitted: { rows: Record<string, number> } };
      receiptText: string;
    };
    expect(full.receipt.attestation).toBe('full');
    expect(asked.receipt.attestation).toBe('candidates');
    expect(asked.receipt.trace.length).toBeLessThan(full.receipt.trace.length);
    expect(
      asked.receipt.trace.length + Object.values(asked.receipt.omitted.rows).reduce((sum, count) => sum + count, 0),
    ).toBe(full.receipt.trace.length);
    const drilled = (await (await post('drill', { scenario: 'retry-policy', receipt: asked.receiptText })).json()) as {
      code: string;
    };
    expect(drilled.code).toBe('RECEIPT_CURRENT');
    expect((await post('compile', { scenario: 'retry-policy', attestation: 'some' })).status).toBe(400);
  });

  it('keeps the receipt out of a user-view answer', async () => {
    const user = (await (await post('compile', { scenario: 'retry-policy', view: 'user' })).json()) as {
      receipt: unknown;
      userView: { view: string };
    };
    expect(user.receipt).toBeNull();
    expect(user.userView.view).toBe('user');
  });

  it('runs a suite and diffs two receipts', async () => {
    const ran = (await (
      await post('test', {
        scenario: 'retry-policy',
        suite: JSON.parse(fixture('poison-controls.expect.json')) as object,
      })
    ).json()) as { passed: number; failed: number };
    expect(ran.failed).toBe(0);
    expect(ran.passed).toBeGreaterThan(0);
    const a = (await (await post('compile', { scenario: 'retry-policy' })).json()) as { receiptText: string };
    const b = (await (await post('compile', { scenario: 'retry-policy', controls: ['remove-provenance'] })).json()) as {
      receiptText: string;
    };
    expect(
      ((await (await post('diff', { before: a.receiptText, after: b.receiptText })).json()) as { identical: boolean })
        .identical,
    ).toBe(false);
  });

  it('refuses hostile requests with a JSON code and no stack trace', async () => {
    const cases: [Promise<Response>, number, string][] = [
      [post('compile', { scenario: 'retry-policy', extra: 1 }), 400, 'INVALID_REQUEST'],
      [post('compile', { contract: 'x', records: 12 }), 400, 'INVALID_REQUEST'],
      [post('compile', '{"scenario": '), 400, 'INVALID_JSON'],
      [post('compile', { scenario: 'retry-policy' }, { 'content-type': 'text/plain' }), 415, 'UNSUPPORTED_MEDIA_TYPE'],
      [post('compile', { scenario: '../../etc/passwd' }), 422, 'UNKNOWN_SCENARIO'],
      [
        post('compile', { contract: { ...contract, tokenBudget: 'many' }, records: builtin.files['records.jsonl'] }),
        422,
        'INVALID_INPUT',
      ],
      [post('compile', { contract, records: 'x'.repeat(1024 * 1024 + 1) }), 413, 'REQUEST_TOO_LARGE'],
      [fetch(new URL('api/compile', service.url)), 405, 'METHOD_NOT_ALLOWED'],
      [fetch(new URL('api/nothing', service.url), { method: 'POST' }), 404, 'NOT_FOUND'],
      [getWithHost('api/health', 'rebound.example'), 421, 'HOST_NOT_ALLOWED'],
    ];
    for (const [pending, status, code] of cases) {
      const refused = await errorOf(await pending);
      expect({ status: refused.status, code: refused.code }).toEqual({ status, code });
      expect(refused.text).not.toMatch(/\bat .+:\d+:\d+|Error:/);
      await expectDocumentedError(refused.text);
    }
  });

  it('answers a request it stopped on with INTERNAL, its words and no stack trace', async () => {
    const failing = await startService({
      api: createApi({ sha256, openDatabase: openInMemoryDatabase }),
      builtinIds: ['retry-policy'],
      readBuiltin: () => Promise.reject(new Error('disk gone')),
      host: '127.0.0.1',
      port: 0,
      appDir: null,
      corsOrigin: null,
      maxBodyBytes: 1024,
    });
    try {
      const answer = await fetch(new URL('api/compile', failing.url), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ scenario: 'retry-policy' }),
      });
      const refused = await errorOf(answer);
      expect({ status: refused.status, code: refused.code }).toEqual({ status: 500, code: 'INTERNAL' });
      expect(refused.text).not.toContain('disk gone');
      await expectDocumentedError(refused.text);
    } finally {
      await failing.close();
    }
  });

  it("answers a refused input with the catalogue's code and arguments its message words", async () => {
    const refused = await post('compile', {
      contract: { ...contract, tokenBudget: 'many' },
      records: builtin.files['records.jsonl'],
    });
    const { error } = (await refused.json()) as { error: { code: string; message: string; words: MessageWords } };
    expect(refused.status).toBe(422);
    expect(error.words).toMatchObject({ code: 'FILE_PROBLEMS', args: { total: 1, shown: 1 } });
    expect(wordsText(error.words)).toBe(error.message);
  });

  it('serves the app with its CSP, and nothing outside its folder', async () => {
    const page = await fetch(service.url);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self' 'wasm-unsafe-eval'");
    expect(page.headers.get('cache-control')).toBe('no-cache');
    expect((await fetch(new URL('assets/main-abc.js', service.url))).headers.get('cache-control')).toContain(
      'immutable',
    );
    for (const path of ['..%2Foutside.txt', '%2e%2e/outside.txt', 'assets/..%2F..%2Foutside.txt'])
      expect((await fetch(`${service.url}${path}`)).status).toBe(404);
  });

  it('closes the connection of a client that never finishes its headers', async () => {
    const closed = await new Promise<string>((resolve) => {
      const socket = connect(Number(new URL(service.url).port), '127.0.0.1', () =>
        socket.write('GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n'),
      );
      let received = '';
      socket.on('data', (chunk) => (received += chunk.toString()));
      socket.on('close', () => resolve(received));
    });
    expect(closed).toMatch(/^HTTP\/1\.1 408/);
  });
});
