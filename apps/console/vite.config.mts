import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

/**
 * Brotli and gzip copies of the text assets beside them (`x.js.br`, `x.js.gz`), made once at build
 * time at the highest levels; the gateway serves the one the browser accepts (@fastify/static
 * preCompressed) and the plain file to anyone else. Fonts and images are compressed already.
 */
function precompress(): Plugin {
  const TEXT = /\.(js|mjs|css|svg|json|map)$/;
  return {
    name: 'docintel-precompress',
    apply: 'build',
    enforce: 'post',
    // After the files are written: the code as served, with every build-time placeholder replaced.
    writeBundle(options, bundle) {
      const dir = options.dir ?? resolve(import.meta.dirname, 'dist');
      for (const fileName of Object.keys(bundle)) {
        if (!TEXT.test(fileName)) continue;
        const source = readFileSync(join(dir, fileName));
        if (source.length < 1024) continue;
        const quality = { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: source.length };
        writeFileSync(join(dir, `${fileName}.br`), brotliCompressSync(source, { params: quality }));
        writeFileSync(join(dir, `${fileName}.gz`), gzipSync(source, { level: 9 }));
      }
    },
  };
}

// The gateway the dev server sends API calls to (`npm start` runs it on 8080).
const gateway = process.env.DOCINTEL_URL ?? 'http://127.0.0.1:8080';

export default defineConfig({
  root: import.meta.dirname,
  base: '/',
  plugins: [react(), precompress()],
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
