import { fileURLToPath } from 'node:url'
import tailwindcss from '@tailwindcss/vite'
import react from '@vitejs/plugin-react'
import { defineConfig } from 'vite'

export default defineConfig({
  root: 'src/client',
  publicDir: fileURLToPath(new URL('./src/client/public', import.meta.url)),
  plugins: [react(), tailwindcss()],
  resolve: { alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) } },
  build: {
    outDir: fileURLToPath(new URL('./dist/client', import.meta.url)),
    emptyOutDir: true,
    manifest: true,
    // lucide's icons, one tiny chunk each (about 200 bytes), become one chunk when three or more
    // chunks share them: a staff screen asked for 45 to 69 files over HTTP/1.1, a quarter of them
    // single icons. Three keeps the signed-out pages within their 90 KB budget
    // (docs/decisions/038).
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            {
              name: 'icons',
              test: /node_modules[\\/]lucide-react[\\/]/,
              minShareCount: 3,
            },
          ],
        },
      },
    },
  },
  // Keep the browser's Host so the API's same-origin checks see the page's own origin.
  server: { proxy: { '/api': { target: 'http://127.0.0.1:5000', changeOrigin: false } } },
})
