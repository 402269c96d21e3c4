import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { guestChunks } from './scripts/vite/chunks.ts';
import { dayjsSpanish } from './scripts/vite/dayjs-es.ts';
import { mantineStyles } from './scripts/vite/mantine-styles.ts';
import { mantineThemeVariables } from './scripts/vite/mantine-theme-variables.ts';
import { modalScrollArea } from './scripts/vite/modal-scroll-area.ts';
import { reactRouterProduction } from './scripts/vite/react-router-production.ts';

const apiServer = 'http://localhost:3000';
const chunks = guestChunks();

export default defineConfig({
  plugins: [
    react(),
    reactRouterProduction(),
    mantineStyles(),
    mantineThemeVariables(),
    modalScrollArea(),
    dayjsSpanish(),
    chunks.plugin,
  ],
  server: {
    proxy: {
      '/api': apiServer,
      '/media': apiServer,
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // read by the server to name each guest page's chunks and data in its HTML (src/server/plugins/page-hints.ts)
    manifest: true,
    rolldownOptions: {
      output: {
        codeSplitting: { groups: chunks.groups },
      },
    },
  },
});
