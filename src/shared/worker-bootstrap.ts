/**
 * A one-line module at a blob: URL that imports the real worker script; start the worker from it and revoke
 * it once the worker is running or gone. A worker loaded straight from a URL takes its Content Security
 * Policy from that response's headers, which GitHub Pages cannot send, so it would have none; a worker
 * whose URL is a blob: URL inherits the policy of whoever made it (HTML, "run a worker": local-scheme
 * workers clone the owner's policy container), the page's meta policy included. So eval, Function and
 * string timers are refused in every worker as on the page, while 'wasm-unsafe-eval' still lets SQLite
 * compile its wasm. The page's `worker-src` allows `blob:`, and a worker's own workers inherit it in turn.
 */
export function workerBootstrapUrl(scriptUrl: string): string {
  return URL.createObjectURL(new Blob([`import ${JSON.stringify(scriptUrl)};\n`], { type: 'text/javascript' }));
}
