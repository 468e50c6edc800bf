import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CONTENT_SECURITY_POLICY } from '../shared/content-security-policy';
import { openApiDocument } from './openapi';
import { isRoute, runRoute, type RouteContext } from './routes';
import { serviceError, serviceErrorBody, type ServiceError } from './service-errors';
import { serveStatic } from './static-files';

export interface ServiceOptions extends RouteContext {
  readonly host: string;
  readonly port: number;
  /** The built app's folder, or null when it is not built (the API is served alone). */
  readonly appDir: string | null;
  /** One origin allowed to call the API from a browser, or null: no CORS header at all. */
  readonly corsOrigin: string | null;
  readonly maxBodyBytes: number;
  /** How long a client may take to send its headers, and its whole request, in milliseconds. */
  readonly timeouts?: { readonly headersMs: number; readonly requestMs: number };
}

export interface RunningService {
  readonly url: string;
  /** Stops taking requests, lets those under way finish, then closes every connection. */
  close(): Promise<void>;
}

const API_HEADERS = {
  'Content-Type': 'application/json; charset=utf-8',
  'Cache-Control': 'no-store',
  'X-Content-Type-Options': 'nosniff',
  'Content-Security-Policy': "default-src 'none'; frame-ancestors 'none'",
  'Referrer-Policy': 'no-referrer',
};

/** Headers sent with every static file: the app's CSP as a header too, and no framing or sniffing. */
export const APP_HEADERS = {
  'Content-Security-Policy': `${CONTENT_SECURITY_POLICY}; frame-ancestors 'none'`,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Opener-Policy': 'same-origin',
};

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);

function sendJson(response: ServerResponse, status: number, body: unknown, extra: Record<string, string> = {}): void {
  response.writeHead(status, { ...API_HEADERS, ...extra });
  response.end(`${JSON.stringify(body, null, 2)}\n`);
}

const sendError = (response: ServerResponse, error: ServiceError, extra: Record<string, string> = {}) =>
  sendJson(response, error.status, serviceErrorBody(error), extra);

/** Reads the body up to `limit` bytes; past it, stops reading and answers null. */
async function readBody(request: IncomingMessage, limit: number): Promise<Buffer | null> {
  const declared = Number(request.headers['content-length'] ?? 0);
  if (declared > limit) return null;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) return null;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/**
 * When the service listens on a loopback address, a request addressed to another host name is refused: a web
 * page elsewhere cannot reach it through a name that resolves to 127.0.0.1 (DNS rebinding).
 */
function hostAllowed(request: IncomingMessage, host: string): boolean {
  if (!LOOPBACK.has(host)) return true;
  const given = (request.headers.host ?? '').replace(/:\d+$/, '');
  return LOOPBACK.has(given);
}

async function handleApi(
  options: ServiceOptions,
  request: IncomingMessage,
  response: ServerResponse,
  path: string,
  cors: Record<string, string>,
): Promise<void> {
  const route = path.slice('/api/'.length);
  if (request.method === 'OPTIONS' && options.corsOrigin !== null) {
    response.writeHead(204, {
      ...cors,
      'Access-Control-Allow-Methods': 'GET, POST',
      'Access-Control-Allow-Headers': 'Content-Type',
      'Access-Control-Max-Age': '600',
    });
    response.end();
    return;
  }
  if (route === 'health' || route === 'openapi.json' || route === 'scenarios') {
    if (request.method !== 'GET' && request.method !== 'HEAD')
      return sendError(response, serviceError('METHOD_NOT_ALLOWED', { method: request.method ?? '', allowed: 'GET' }), {
        ...cors,
        Allow: 'GET, HEAD',
      });
    const body =
      route === 'health'
        ? { status: 'ok', version: options.api.version }
        : route === 'scenarios'
          ? { scenarios: options.builtinIds }
          : openApiDocument(options.api.version);
    return sendJson(response, 200, body, cors);
  }
  if (!isRoute(route)) return sendError(response, serviceError('NOT_FOUND', { path }), cors);
  if (request.method !== 'POST')
    return sendError(response, serviceError('METHOD_NOT_ALLOWED', { method: request.method ?? '', allowed: 'POST' }), {
      ...cors,
      Allow: 'POST',
    });
  if (!/^application\/json\s*(;|$)/i.test(request.headers['content-type'] ?? ''))
    return sendError(response, serviceError('UNSUPPORTED_MEDIA_TYPE'), cors);
  const bytes = await readBody(request, options.maxBodyBytes);
  if (bytes === null) {
    sendError(response, serviceError('REQUEST_TOO_LARGE', { limit: options.maxBodyBytes }), {
      ...cors,
      Connection: 'close',
    });
    request.destroy();
    return;
  }
  let body: unknown;
  try {
    body = JSON.parse(bytes.toString('utf8'));
  } catch {
    return sendError(response, serviceError('INVALID_JSON'), cors);
  }
  const answer = await runRoute(options, route, body);
  sendJson(response, answer.status, answer.body, cors);
}

async function handle(options: ServiceOptions, request: IncomingMessage, response: ServerResponse): Promise<void> {
  const cors: Record<string, string> =
    options.corsOrigin === null ? {} : { 'Access-Control-Allow-Origin': options.corsOrigin, Vary: 'Origin' };
  if (!hostAllowed(request, options.host)) return sendError(response, serviceError('HOST_NOT_ALLOWED'));
  const path = new URL(request.url ?? '/', 'http://service.invalid').pathname;
  if (path.startsWith('/api/')) return handleApi(options, request, response, path, cors);
  if (request.method !== 'GET' && request.method !== 'HEAD')
    return sendError(response, serviceError('METHOD_NOT_ALLOWED', { method: request.method ?? '', allowed: 'GET' }), {
      Allow: 'GET, HEAD',
    });
  if (options.appDir === null) return sendError(response, serviceError('APP_NOT_BUILT'));
  const served = await serveStatic(options.appDir, path, request.method === 'HEAD', response, APP_HEADERS);
  if (!served) sendError(response, serviceError('NOT_FOUND', { path }));
}

/**
 * Starts the local service: the built app and the JSON API on one port. Every answer is JSON with a code
 * (never a stack trace); slow or oversized requests are cut off; nothing is kept between requests.
 */
export async function startService(options: ServiceOptions): Promise<RunningService> {
  const { headersMs, requestMs } = options.timeouts ?? { headersMs: 10_000, requestMs: 30_000 };
  const limits = {
    headersTimeout: headersMs,
    requestTimeout: requestMs,
    connectionsCheckingInterval: Math.min(headersMs, 1_000),
    keepAliveTimeout: 5_000,
  };
  // Loaded here, not with the module: the CLI's other commands do not pay for Node's HTTP.
  const { createServer } = await import('node:http');
  const server: Server = createServer(limits, (request, response) => {
    handle(options, request, response).catch(() => {
      if (!response.headersSent) sendError(response, serviceError('INTERNAL'));
      else response.destroy();
    });
  });
  server.maxHeadersCount = 100;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${shownHost}:${address.port}/`,
    close: () =>
      new Promise<void>((resolve) => {
        // A kept-alive connection turns idle when its request finishes: close each as it does.
        const sweep = setInterval(() => server.closeIdleConnections(), 50);
        server.close(() => {
          clearInterval(sweep);
          resolve();
        });
        server.closeIdleConnections();
      }),
  };
}
