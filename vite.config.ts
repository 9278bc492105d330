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
    rollupOptions: {
      output: {
        // Libraries change less often than our screens: each group is its own long-cached file,
        // fetched in parallel with the entry, and a screen's chunk holds only our code for it.
        manualChunks(id) {
          if (!id.includes('/node_modules/')) return undefined;
          if (/\/node_modules\/(react|react-dom|scheduler)\//.test(id)) return 'react';
          if (id.includes('/node_modules/react-router/')) return 'router';
          if (id.includes('/node_modules/@tanstack/')) return 'query';
          return undefined;
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
