// A small static server on 127.0.0.1 for the demo and the browser tests.
//   node demo/server.mjs [--root DIR] [--port N]   (default: the package folder, 8173)
import { createServer } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const TYPES = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.mjs': 'text/javascript; charset=utf-8',
  '.json': 'application/json', '.wasm': 'application/wasm', '.png': 'image/png', '.css': 'text/css', '.map': 'application/json',
};

/** Serves `root` on host:port (port 0: any free one). Resolves to { server, url }. */
export function startServer({ root = fileURLToPath(new URL('..', import.meta.url)), port = 8173, host = '127.0.0.1' } = {}) {
  const base = resolve(root);
  const server = createServer(async (req, res) => {
    try {
      const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
      if (path === '/favicon.ico') {
        res.writeHead(204);
        return res.end();
      }
      if (path === '/') {
        res.writeHead(302, { location: '/demo/' });
        return res.end();
      }
      let file = resolve(join(base, path));
      if (file !== base && !file.startsWith(base + sep)) {
        res.writeHead(403);
        return res.end();
      }
      if ((await stat(file)).isDirectory()) file = join(file, 'index.html');
      const body = await readFile(file);
      // cross-origin isolation gives performance.now() 5 us steps instead of 100 us
      res.writeHead(200, {
        'content-type': TYPES[extname(file)] ?? 'application/octet-stream', 'cache-control': 'no-store',
        'cross-origin-opener-policy': 'same-origin', 'cross-origin-embedder-policy': 'require-corp',
      });
      res.end(body);
    } catch {
      res.writeHead(404);
      res.end('not found');
    }
  });
  return new Promise((ok, fail) => {
    server.once('error', fail);
    server.listen(port, host, () => ok({ server, url: `http://${host}:${server.address().port}` }));
  });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === resolve(process.argv[1])) {
  const arg = (name) => { const i = process.argv.indexOf(name); return i > 0 ? process.argv[i + 1] : undefined; };
  const { url } = await startServer({ root: arg('--root'), port: Number(arg('--port') ?? 8173) });
  console.log(`satc demo: ${url}/demo/`);
}
