/**
 * The renderer's build: React + Vite, everything bundled into dist/renderer (no fonts or
 * scripts from the network). The server's renderer-static plugin serves the result with a
 * strict CSP, so the HTML carries no inline script or style.
 */
import path from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const root = path.resolve(import.meta.dirname, 'renderer');

export default defineConfig({
  root,
  base: '/',
  plugins: [react()],
  logLevel: 'warn',
  build: {
    outDir: path.resolve(import.meta.dirname, 'dist/renderer'),
    emptyOutDir: true,
    assetsInlineLimit: 0, // fonts and images as files: the CSP allows 'self', not data: for fonts
    modulePreload: { polyfill: false }, // no inline polyfill script
    sourcemap: false,
    target: 'es2022',
    // One chunk for the whole app (it runs from this machine, not over a network); the budget
    // that matters is the gzip size of the first screen (goal: under 400 KB), not 500 kB raw.
    chunkSizeWarningLimit: 1500,
  },
});
