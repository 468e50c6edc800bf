import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CONTENT_SECURITY_POLICY } from './src/shared/content-security-policy';
import { withSiteId } from './src/shared/schema-ids';

/**
 * Puts the CSP meta first in <head> of the built page. The dev server injects inline scripts and
 * styles for hot reload, so the policy is applied to builds only, which is what users are served.
 */
function contentSecurityPolicy(): Plugin {
  return {
    name: 'context-compiler-csp',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler: (html) =>
        html.replace(
          /<head>/,
          `<head>\n    <meta http-equiv="Content-Security-Policy" content="${CONTENT_SECURITY_POLICY}" />`,
        ),
    },
  };
}

/**
 * With CONTEXT_COMPILER_SITE_URL set (the Pages workflow sets it to the site's address), the schemas copied from
 * public/ get absolute `$id`s on that site, so an editor can fetch them for `*.expect.json` files. It runs before
 * the service worker's precache list is made (closeBundle), so the list hashes the files as served.
 */
function schemaIdsOnSite(siteUrl: string | undefined): Plugin {
  return {
    name: 'context-compiler-schema-ids',
    apply: 'build',
    writeBundle(options) {
      if (siteUrl === undefined || siteUrl === '' || options.dir === undefined) return;
      const folder = join(options.dir, 'schema');
      for (const file of readdirSync(folder))
        writeFileSync(join(folder, file), withSiteId(readFileSync(join(folder, file), 'utf8'), file, siteUrl));
    },
  };
}

/**
 * `vite preview` answers the sub-path without its slash (`/some-repo`) with a 404; GitHub Pages answers it
 * with a 301 to `/some-repo/`. The preview server does what the host does, so the browser tests see the
 * redirect users get (the app keeps it fresh in the HTTP cache: see src/app/pwa-status.ts).
 */
function redirectToSlash(): Plugin {
  return {
    name: 'context-compiler-slash-redirect',
    configurePreviewServer(server) {
      const base = server.config.base;
      server.middlewares.use((request, response, next) => {
        const [path = '', query] = (request.url ?? '').split('?', 2);
        if (base === '/' || path !== base.slice(0, -1)) return next();
        response.writeHead(301, {
          Location: `${base}${query === undefined ? '' : `?${query}`}`,
          'Cache-Control': 'max-age=600',
        });
        response.end();
      });
    },
  };
}

export default defineConfig({
  // Relative, so one dist/ works at / and under a GitHub Pages sub-path.
  base: './',
  plugins: [
    react(),
    contentSecurityPolicy(),
    schemaIdsOnSite(process.env.CONTEXT_COMPILER_SITE_URL),
    redirectToSlash(),
    VitePWA({
      registerType: 'prompt',
      injectRegister: false,
      includeAssets: ['favicon.svg', 'icons/*.png'],
      manifest: {
        name: 'Context Compiler',
        short_name: 'Context Compiler',
        description:
          'Offline context compiler: decides which records an AI assistant may see for one task and proves every inclusion and exclusion.',
        start_url: './',
        scope: './',
        display: 'standalone',
        background_color: '#f7f7f4',
        theme_color: '#1f3a5f',
        icons: [
          { src: 'icons/icon-192.png', sizes: '192x192', type: 'image/png' },
          { src: 'icons/icon-512.png', sizes: '512x512', type: 'image/png' },
          { src: 'icons/icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
        ],
      },
      workbox: {
        globPatterns: ['**/*.{js,mjs,css,html,wasm,svg,png,webmanifest}'],
        // sqlite3.wasm is about 0.9 MB; Workbox skips anything over its 2 MiB default, so leave room.
        maximumFileSizeToCacheInBytes: 8 * 1024 * 1024,
        navigateFallback: 'index.html',
        cleanupOutdatedCaches: true,
        // The first visit's worker controls the page at once, so "Ready to work offline" is true when shown;
        // an update still waits for the prompt (no skipWaiting), so a running page never changes under the user.
        clientsClaim: true,
      },
    }),
  ],
  worker: { format: 'es' },
  optimizeDeps: { exclude: ['@sqlite.org/sqlite-wasm'] },
  build: { target: 'es2022', sourcemap: false },
});
