import { readFile } from 'node:fs/promises';
import { wordMessage } from '../../core/messages';
import { dirname, join } from 'node:path';
import type { ParseArgsConfig } from 'node:util';
import { startService } from '../../service/http';
import type { BuiltinScenario } from '../../service/routes';
import { APP_DIR, builtinScenarioIds, builtinScenarioPath } from '../builtin-paths';
import { EXIT } from '../command';
import { library } from '../library';
import { defineCommand } from '../define-command';
import { noPositionals } from '../options';

const options = {
  host: { type: 'string', default: '127.0.0.1' },
  port: { type: 'string', default: '8765' },
  cors: { type: 'string' },
  'max-body': { type: 'string', default: String(16 * 1024 * 1024) },
} as const satisfies ParseArgsConfig['options'];

/**
 * A built-in scenario's file and the records file it names (when its records are not inline), read fresh for each
 * request.
 */
async function readBuiltin(id: string): Promise<BuiltinScenario | null> {
  const path = builtinScenarioPath(id);
  const scenario = await readFile(path, 'utf8').catch(() => null);
  if (scenario === null) return null;
  const named: unknown = (JSON.parse(scenario) as { records?: unknown }).records;
  if (typeof named !== 'string') return { scenario, files: {} };
  const records = await readFile(join(dirname(path), named), 'utf8').catch(() => null);
  return { scenario, files: records === null ? {} : { [named]: records } };
}

export const serveCommand = defineCommand({
  name: 'serve',
  summary: 'serve the app and a local JSON API (compile, drill, diff, test) on 127.0.0.1',
  usage: `usage: context-compiler serve [--port N] [--host ADDRESS] [--cors ORIGIN] [--max-body BYTES]
Serves the built app (it works offline after the first visit) and a JSON API on one port:
  GET  /api/health  /api/scenarios  /api/openapi.json
  POST /api/compile  /api/drill  /api/diff  /api/test   (application/json; schemas in /api/openapi.json)
Stateless: every request carries its inputs (a contract and records, or a built-in scenario id with
controls and late changes); nothing is kept between requests. Errors are JSON with a code.
options:
  --port N          the port (default 8765; 0 picks a free one)
  --host ADDRESS    the address to listen on (default 127.0.0.1, this machine only). Another address
                    lets other machines call it: there is no authentication, so only on a network you trust
  --cors ORIGIN     let web pages from ORIGIN call the API (default: no CORS header)
  --max-body BYTES  the largest request body accepted (default 16 MiB)
Ctrl+C (or SIGTERM) stops it: requests under way finish first.
exit: 0 stopped · 1 usage, or the port cannot be used`,
  options,
  positionals: noPositionals,
  async run({ values, usageError }, io) {
    const port = Number(values.port);
    if (!Number.isInteger(port) || port < 0 || port > 65_535)
      return usageError('PORT_RANGE', { given: String(values.port) });
    const maxBodyBytes = Number(values['max-body']);
    if (!Number.isInteger(maxBodyBytes) || maxBodyBytes < 1)
      return usageError('MAX_BODY_POSITIVE', { given: String(values['max-body']) });
    if (io.untilStopped === undefined) return usageError('RUNS_UNTIL_STOPPED', { what: 'serve' });
    let service;
    try {
      service = await startService({
        api: library,
        builtinIds: builtinScenarioIds(),
        readBuiltin,
        host: values.host,
        port,
        appDir: APP_DIR,
        corsOrigin: values.cors ?? null,
        maxBodyBytes,
      });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? 'an error';
      io.stderr(
        `${wordMessage('ERROR_LINE', { problem: wordMessage('CANNOT_LISTEN', { host: values.host, port, reason: code }) })}\n`,
      );
      return EXIT.invalid;
    }
    io.stderr(`${wordMessage('SERVING', { url: service.url, app: APP_DIR !== null })}\n`);
    await io.untilStopped();
    io.stderr(`${wordMessage('STOPPING')}\n`);
    await service.close();
    return EXIT.ok;
  },
});
