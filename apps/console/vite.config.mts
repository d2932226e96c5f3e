import { resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The gateway the dev server sends API calls to (`npm start` runs it on 8080).
const gateway = process.env.DOCINTEL_URL ?? 'http://127.0.0.1:8080';

export default defineConfig({
  root: import.meta.dirname,
  base: '/',
  plugins: [react()],
  resolve: {
    // The generated OpenAPI client, from its source: no build step of its own for the browser.
    alias: { '@docintel/api-client': resolve(import.meta.dirname, '../../libs/api-client/src') },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // Only hashed files under assets/ (served as immutable) besides index.html (served no-cache).
    assetsDir: 'assets',
    chunkSizeWarningLimit: 1024,
    reportCompressedSize: false,
  },
  server: {
    port: 5173,
    proxy: Object.fromEntries(['/api', '/v1', '/health'].map((prefix) => [prefix, { target: gateway, changeOrigin: false }])),
  },
});
