/** The main thread's worker proxy (src/sandbox/client.ts), with a fake worker. */
import { describe, expect, it } from 'vitest';
import { SandboxClient, type WorkerLike } from '../../src/sandbox/client.ts';
import type { Request, RequestEnvelope, Response, ResponseEnvelope } from '../../src/sandbox/protocol.ts';

function fakeWorker() {
	const sent: RequestEnvelope[] = [];
	const worker: WorkerLike & { sent: RequestEnvelope[]; reply(id: number, response: Response): void; fail(message: string): void; terminated: boolean } = {
		sent,
		terminated: false,
		onmessage: null,
		onerror: null,
		onmessageerror: null,
		postMessage: (message) => void sent.push(message),
		terminate() {
			this.terminated = true;
		},
		reply(id, response) {
			this.onmessage?.({ data: { id, response } as ResponseEnvelope } as MessageEvent<ResponseEnvelope>);
		},
		fail(message) {
			this.onerror?.({ message, preventDefault() {} } as ErrorEvent);
		},
	};
	return worker;
}

const start: Request = { type: 'start', scenario: { id: 's', title: { en: '', 'zh-cn': '' }, summary: { en: '', 'zh-cn': '' } }, locale: 'en' };

describe('the sandbox client', () => {
	it('creates the worker on the first request, starting the session first', async () => {
		const worker = fakeWorker();
		let made = 0;
		const client = new SandboxClient(() => start, () => (made++, worker));
		expect(client.spawned).toBe(false);
		const answer = client.request({ type: 'pause' });
		expect(made).toBe(1);
		expect(worker.sent.map((m) => m.request.type)).toEqual(['start', 'pause']);
		worker.reply(worker.sent[1].id, { type: 'error', message: 'x' });
		expect(await answer).toEqual({ type: 'error', message: 'x' });
		client.request({ type: 'step' });
		expect(made).toBe(1);
	});

	it('matches answers to requests by id, whatever their order, and hands pushes on', async () => {
		const worker = fakeWorker();
		const client = new SandboxClient(() => start, () => worker);
		const pushed: Response[] = [];
		client.onPush = (r) => pushed.push(r);
		const a = client.request({ type: 'session' });
		const b = client.request({ type: 'pause' });
		const [, ra, rb] = worker.sent;
		worker.reply(0, { type: 'error', message: 'pushed' });
		worker.reply(rb.id, { type: 'error', message: 'b' });
		worker.reply(ra.id, { type: 'error', message: 'a' });
		expect(await a).toEqual({ type: 'error', message: 'a' });
		expect(await b).toEqual({ type: 'error', message: 'b' });
		expect(pushed).toEqual([{ type: 'error', message: 'pushed' }]);
	});

	it('answers every pending request with an error when the worker dies, and reports it once', async () => {
		const worker = fakeWorker();
		const client = new SandboxClient(() => start, () => worker);
		const crashes: string[] = [];
		client.onCrash = (m) => crashes.push(m);
		const pending = client.request({ type: 'step' });
		worker.fail('script failed to load');
		worker.fail('again');
		expect(await pending).toEqual({ type: 'error', message: 'script failed to load' });
		expect(crashes).toEqual(['script failed to load']);
		expect(worker.terminated).toBe(true);
		expect(await client.request({ type: 'step' })).toMatchObject({ type: 'error' });
	});

	it('reports a worker that cannot even be created', async () => {
		const crashes: string[] = [];
		const client = new SandboxClient(() => start, () => {
			throw new Error('no workers here');
		});
		client.onCrash = (m) => crashes.push(m);
		expect(await client.request({ type: 'step' })).toMatchObject({ type: 'error' });
		expect(crashes).toEqual(['no workers here']);
	});
});
