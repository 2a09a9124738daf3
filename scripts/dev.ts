// npm run dev: the API server (restarted on change) and Vite with hot reload in front of it.
import { spawn } from 'node:child_process'

const children = [
  spawn(process.execPath, ['--import', 'tsx', '--watch', 'src/server/index.ts'], {
    stdio: 'inherit',
    env: process.env,
  }),
  spawn('npx', ['vite', '--host', '127.0.0.1', '--port', '5173'], {
    stdio: 'inherit',
    env: process.env,
  }),
]
console.log('Open http://127.0.0.1:5173 (Vite, hot reload); the API runs on PORT (default 5000).')

const stop = () => {
  for (const child of children) child.kill('SIGTERM')
  process.exit(0)
}
process.on('SIGINT', stop)
process.on('SIGTERM', stop)
for (const child of children) child.on('exit', (code) => code && stop())
