// A small static file server for the built site (`dist/`), used by
// `npm run preview` and by the browser tests. It serves the site under the
// configured base path, with the MIME types Pagefind's files need, and with
// the same Content-Security-Policy the pages carry in their <meta>, sent as a
// header too (that is how a production host should serve it).
import { createServer } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const TYPES = {
	'.html': 'text/html; charset=utf-8',
	'.js': 'text/javascript; charset=utf-8',
	'.mjs': 'text/javascript; charset=utf-8',
	'.css': 'text/css; charset=utf-8',
	'.json': 'application/json',
	'.svg': 'image/svg+xml',
	'.png': 'image/png',
	'.ico': 'image/x-icon',
	'.wasm': 'application/wasm',
	'.xml': 'application/xml',
	'.txt': 'text/plain; charset=utf-8',
	'.woff2': 'font/woff2',
};

/**
 * Starts serving `root` under `base` on `port` (0 = any free port).
 * Resolves to { url, close }.
 */
export async function serveDist({ root = resolve('dist'), base = '/', port = 0, host = '127.0.0.1' } = {}) {
	const prefix = base.endsWith('/') ? base : `${base}/`;
	const server = createServer(async (req, res) => {
		try {
			const url = new URL(req.url ?? '/', 'http://localhost');
			let path = decodeURIComponent(url.pathname);
			if (!path.startsWith(prefix)) {
				res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
				return;
			}
			path = path.slice(prefix.length);
			let file = normalize(join(root, path));
			if (!file.startsWith(root)) {
				res.writeHead(403).end();
				return;
			}
			let info = await stat(file).catch(() => null);
			if (info?.isDirectory()) {
				file = join(file, 'index.html');
				info = await stat(file).catch(() => null);
			}
			if (!info) {
				const notFound = await readFile(join(root, '404.html')).catch(() => Buffer.from('Not found'));
				res.writeHead(404, { 'content-type': 'text/html; charset=utf-8' }).end(notFound);
				return;
			}
			res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
			res.end(await readFile(file));
		} catch (error) {
			res.writeHead(500, { 'content-type': 'text/plain' }).end(String(error));
		}
	});
	await new Promise((done) => server.listen(port, host, done));
	const address = server.address();
	return {
		url: `http://${host}:${address.port}${prefix}`,
		close: () => new Promise((done) => server.close(done)),
	};
}

// `node scripts/serve-dist.mjs [port]`: serve until interrupted.
if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
	const { siteConfig } = await import('../site.config.mjs');
	const port = Number(process.argv[2] ?? process.env.PORT ?? 4321);
	const { url } = await serveDist({ base: siteConfig.base, port });
	console.log(`Serving dist/ at ${url}  (Ctrl+C to stop)`);
}
