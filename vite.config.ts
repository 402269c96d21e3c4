import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { guestChunks } from './scripts/vite/chunks.ts';
import { dayjsSpanish } from './scripts/vite/dayjs-es.ts';
import { mantineStyles } from './scripts/vite/mantine-styles.ts';
import { modalScrollArea } from './scripts/vite/modal-scroll-area.ts';

const apiServer = 'http://localhost:3000';
const chunks = guestChunks();

export default defineConfig({
  plugins: [react(), mantineStyles(), modalScrollArea(), dayjsSpanish(), chunks.plugin],
  server: {
    proxy: {
      '/api': apiServer,
      '/media': apiServer,
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    rolldownOptions: {
      output: {
        codeSplitting: { groups: chunks.groups },
      },
    },
  },
});
