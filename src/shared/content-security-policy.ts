/**
 * The app's Content-Security-Policy: the built page carries it as a meta tag (GitHub Pages cannot send it as
 * a header) and `context-compiler serve` sends it as a header too. 'wasm-unsafe-eval' lets SQLite compile its
 * wasm and nothing else; blob: is for the worker's one-line bootstrap, through which the worker inherits
 * this policy (src/app/worker-client.ts).
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self' 'wasm-unsafe-eval'",
  "worker-src 'self' blob:",
  "connect-src 'self'",
  "img-src 'self' data:",
  "style-src 'self'",
  "font-src 'self'",
  "manifest-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');
