import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { EXIT } from './command';
import { main } from './main';

describe('context-compiler serve', () => {
  it('serves until asked to stop, finishing a request under way, then exits 0', async () => {
    let stderr = '';
    let stopping = () => {};
    const closing = new Promise<void>((resolve) => (stopping = resolve));
    let stop = () => {};
    const stopped = new Promise<void>((resolve) => (stop = resolve));
    let announced = (_url: string) => {};
    const url = new Promise<string>((resolve) => (announced = resolve));
    const exit = main(['serve', '--port', '0'], {
      stdout: () => {},
      stderr: (text) => {
        stderr += text;
        const found = /at (http:\/\/\S+)/.exec(text);
        if (found?.[1] !== undefined) announced(found[1]);
        if (text.startsWith('stopping')) stopping();
      },
      cwd: process.cwd(),
      untilStopped: () => stopped,
    });
    const base = new URL(await url);
    expect(await (await fetch(new URL('api/health', base))).json()).toMatchObject({ status: 'ok' });
    // The request is under way once the server has read its headers, which its "100 Continue" says; only then is
    // the stop asked for, and the body sent once the server is closing.
    const body = '{"scenario":"retry-policy"}';
    const socket = connect(Number(base.port), base.hostname);
    let received = '';
    const continued = new Promise<void>((resolve) =>
      socket.on('data', (chunk: Buffer) => {
        received += chunk.toString('utf8');
        if (received.includes('100 Continue')) resolve();
      }),
    );
    const ended = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    socket.write(
      `POST /api/compile HTTP/1.1\r\nHost: ${base.host}\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nExpect: 100-continue\r\n\r\n`,
    );
    await continued;
    stop();
    await closing;
    socket.write(body);
    await ended;
    expect(received).toMatch(/HTTP\/1\.1 200 OK/);
    expect(await exit).toBe(EXIT.ok);
    expect(stderr).toContain('stopping');
    await expect(fetch(new URL('api/health', base))).rejects.toThrow();
  });

  it('refuses a port that is not a number, as a usage error', async () => {
    let stderr = '';
    const code = await main(['serve', '--port', 'http'], {
      stdout: () => {},
      stderr: (text) => (stderr += text),
      cwd: process.cwd(),
      untilStopped: () => new Promise(() => {}),
    });
    expect(code).toBe(EXIT.invalid);
    expect(stderr).toContain('--port must be a whole number');
  });
});
