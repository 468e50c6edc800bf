import type { ClientConfig } from 'pg';

/**
 * What `--database` names, as pg's client takes it: a postgres:// URL, a libpq key=value string
 * (`host=db dbname=corpus user=me`), or `env`: DATABASE_URL when it is set, else libpq's PG* variables
 * (PGHOST, PGPORT, PGDATABASE, PGUSER, PGPASSWORD) and ~/.pgpass, which pg reads itself.
 * `sslmode` is turned into pg's own `ssl` setting here, so pg prints no warning about how it reads the mode:
 * disable (no TLS), require (TLS, certificate not checked, as libpq), verify-ca and verify-full (TLS, checked).
 */
export type ConnectionTarget =
  | { readonly ok: true; readonly config: ClientConfig; readonly shown: string }
  | { readonly ok: false; readonly problem: string };

const KEYS: Readonly<Record<string, keyof ClientConfig | 'sslmode'>> = {
  host: 'host',
  hostaddr: 'host',
  port: 'port',
  dbname: 'database',
  user: 'user',
  password: 'password',
  sslmode: 'sslmode',
  application_name: 'application_name',
  connect_timeout: 'connectionTimeoutMillis',
  options: 'options',
};

const SSL_MODES = new Set(['disable', 'allow', 'prefer', 'require', 'verify-ca', 'verify-full']);

function sslOf(mode: string | undefined): ClientConfig['ssl'] {
  if (mode === undefined || mode === 'disable' || mode === 'allow' || mode === 'prefer') return false;
  return mode === 'require' ? { rejectUnauthorized: false } : { rejectUnauthorized: true };
}

/** The URL as it may be printed: without its password. */
function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password !== '') parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(an unreadable URL)';
  }
}

/** Splits a libpq key=value string: a value may be single-quoted, with a backslash escaping the next character. */
function keyValuePairs(text: string): Map<string, string> | string {
  const pairs = new Map<string, string>();
  const pattern = /\s*([A-Za-z_]+)\s*=\s*(?:'((?:[^'\\]|\\.)*)'|([^\s']*))\s*/y;
  while (pattern.lastIndex < text.length) {
    const start = pattern.lastIndex;
    const found = pattern.exec(text);
    if (found === null)
      return `cannot read the connection string after ${JSON.stringify(text.slice(start, start + 20))}`;
    pairs.set(found[1] ?? '', found[2] !== undefined ? found[2].replace(/\\(.)/g, '$1') : (found[3] ?? ''));
  }
  return pairs;
}

function fromKeyValues(text: string): ConnectionTarget {
  const pairs = keyValuePairs(text);
  if (typeof pairs === 'string') return { ok: false, problem: pairs };
  const config: Record<string, unknown> = {};
  let mode: string | undefined;
  for (const [key, value] of pairs) {
    const field = KEYS[key];
    if (field === undefined)
      return {
        ok: false,
        problem: `the connection string's key ${key} is not one this CLI passes on (${Object.keys(KEYS).join(', ')})`,
      };
    if (field === 'sslmode') mode = value;
    else if (field === 'port') config.port = Number(value);
    else if (field === 'connectionTimeoutMillis') config.connectionTimeoutMillis = Number(value) * 1000;
    else config[field] = value;
  }
  if (mode !== undefined && !SSL_MODES.has(mode))
    return { ok: false, problem: `sslmode ${mode} is not one of ${[...SSL_MODES].join(', ')}` };
  const shown = [...pairs].map(([key, value]) => `${key}=${key === 'password' ? '***' : value}`).join(' ');
  return { ok: true, config: { ...(config as ClientConfig), ssl: sslOf(mode) }, shown };
}

function fromUrl(url: string): ConnectionTarget {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { ok: false, problem: 'the URL cannot be read' };
  }
  const mode = parsed.searchParams.get('sslmode') ?? undefined;
  if (mode !== undefined && !SSL_MODES.has(mode))
    return { ok: false, problem: `sslmode ${mode} is not one of ${[...SSL_MODES].join(', ')}` };
  parsed.searchParams.delete('sslmode');
  return { ok: true, config: { connectionString: parsed.toString(), ssl: sslOf(mode) }, shown: redactUrl(url) };
}

/** Reads `--database`'s value; `environment` is the process's (DATABASE_URL is read from it for `env`). */
export function connectionTarget(
  given: string,
  environment: Readonly<Record<string, string | undefined>>,
): ConnectionTarget {
  if (given === 'env') {
    const url = environment.DATABASE_URL;
    if (url !== undefined && url !== '') return connectionTarget(url, {});
    return { ok: true, config: {}, shown: 'the server the PG* variables name' };
  }
  if (/^postgres(ql)?:\/\//.test(given)) return fromUrl(given);
  if (/^\s*[A-Za-z_]+\s*=/.test(given)) return fromKeyValues(given);
  return {
    ok: false,
    problem:
      'give a postgres:// URL, a key=value connection string (host=… dbname=…), or env (DATABASE_URL, else ' +
      'the PG* variables)',
  };
}
