import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const webRoot = fileURLToPath(new URL('./src/web', import.meta.url));

/**
 * React Router's package exports name only its development build (dev warnings kept in); the
 * production build beside it drops them. Builds use it; `npm run dev` keeps the warnings.
 */
const reactRouterProduction = fileURLToPath(
  new URL('./node_modules/react-router/dist/production/index.mjs', import.meta.url),
);

/**
 * The web app. `vite build` writes dist/web, which the server's web plugin serves with an
 * index.html fallback; `vite` (npm run dev) proxies /api to the API on API_ORIGIN or :3000.
 */
export default defineConfig(({ command }) => ({
  root: webRoot,
  plugins: [react(), tailwindcss()],
  resolve: {
    alias:
      command === 'build' ? [{ find: /^react-router$/, replacement: reactRouterProduction }] : [],
  },
  build: {
    outDir: fileURLToPath(new URL('./dist/web', import.meta.url)),
    emptyOutDir: true,
    sourcemap: true,
    // .vite/manifest.json: which files each screen's module needs; the server reads it to name a
    // requested screen's chunks in the page's head (src/server/plugins/route-preloads.ts).
    manifest: true,
    rolldownOptions: {
      output: {
        codeSplitting: {
          // Libraries change less often than our screens: each group is its own long-cached file,
          // fetched in parallel with the entry, and a screen's chunk holds only our code for it.
          groups: [
            { name: 'react', test: /\/node_modules\/(react|react-dom|scheduler)\//, priority: 3 },
            { name: 'router', test: /\/node_modules\/react-router\//, priority: 2 },
            { name: 'query', test: /\/node_modules\/@tanstack\//, priority: 1 },
          ],
          // Code two screens share goes into each of them when it is small (under 20 KB of
          // source: an icon, a Radix part, one of our helpers) instead of a file of its own: a
          // screen then loads about 10 files instead of 27-41, and each file costs a phone a
          // request and main-thread time of its own (issue 27; bench/lighthouse/README.md).
          experimentalInlineCommonChunks: { maxSize: 20_000 },
        },
      },
    },
  },
  server: {
    port: 5173,
    proxy: {
      '/api': {
        target: process.env.API_ORIGIN ?? 'http://127.0.0.1:3000',
        changeOrigin: false,
      },
    },
  },
}));
