import { describe, expect, it } from 'vitest';
import { EXIT } from './command';
import { main } from './main';

describe('context-compiler serve', () => {
  it('serves until asked to stop, finishing a request under way, then exits 0', async () => {
    let stderr = '';
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
      },
      cwd: process.cwd(),
      untilStopped: () => stopped,
    });
    const base = await url;
    expect(await (await fetch(new URL('api/health', base))).json()).toMatchObject({ status: 'ok' });
    const underWay = fetch(new URL('api/compile', base), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"scenario":"retry-policy"}',
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    stop();
    expect((await underWay).status).toBe(200);
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
