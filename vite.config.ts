import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const apiServer = 'http://localhost:3000';

export default defineConfig({
  plugins: [react()],
  server: {
    proxy: {
      '/api': apiServer,
      '/media': apiServer,
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
  },
});
