// Runs mermaid's own parser in a worker thread. Mermaid sanitizes labels with
// DOMPurify, which needs a DOM; the worker gets a small one (happy-dom) of its
// own, so the build process's globals stay untouched.
import { parentPort } from 'node:worker_threads';
import { Window } from 'happy-dom';

const dom = new Window();
globalThis.window = dom;
globalThis.document = dom.document;
const mermaid = (await import('mermaid')).default;

parentPort.on('message', async ({ id, source }) => {
	try {
		await mermaid.parse(source);
		parentPort.postMessage({ id, ok: true });
	} catch (error) {
		parentPort.postMessage({
			id,
			ok: false,
			message: String(error?.message ?? error),
			line: error?.hash?.loc?.first_line,
		});
	}
});
