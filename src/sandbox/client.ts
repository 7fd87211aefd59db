/**
 * The main thread's side of the sandbox worker: sends requests with ids,
 * resolves each with the worker's answer, and hands pushed updates (id 0,
 * the views of a playing cluster) to a listener. The worker is created on
 * the first request, so the simulation's code is fetched only when the
 * reader starts using the sandbox. Requests never reject: a failure is an
 * `error` response, and a worker that dies reports through `onCrash`.
 */
import type { Request, RequestEnvelope, Response, ResponseEnvelope } from './protocol.ts';

export interface WorkerLike {
	postMessage(message: RequestEnvelope): void;
	terminate(): void;
	onmessage: ((event: MessageEvent<ResponseEnvelope>) => void) | null;
	onerror: ((event: ErrorEvent) => void) | null;
	onmessageerror: ((event: MessageEvent) => void) | null;
}

/** The real worker: a same-origin module worker bundled by Vite (allowed by `worker-src 'self'`). */
export function createSandboxWorker(): WorkerLike {
	return new Worker(new URL('./worker.ts', import.meta.url), { type: 'module' }) as unknown as WorkerLike;
}

export class SandboxClient {
	private worker: WorkerLike | undefined;
	private nextId = 1;
	private readonly pending = new Map<number, (response: Response) => void>();
	private dead = false;

	/** Pushed updates (views while playing, errors of a play slice). */
	onPush: (response: Response) => void = () => {};
	/** The worker failed to load or died; every pending request has been answered with an error. */
	onCrash: (message: string) => void = () => {};

	/**
	 * @param start the request that starts the session, sent before anything else
	 * @param factory makes the worker (tests pass a fake)
	 */
	constructor(
		private readonly start: () => Request,
		private readonly factory: () => WorkerLike = createSandboxWorker,
	) {}

	/** Whether the worker has been created (the simulation's code requested). */
	get spawned(): boolean {
		return this.worker !== undefined;
	}

	/** Creates the worker and starts the session, if not done yet. Resolves with the start's answer (or undefined when already started). */
	warmUp(): Promise<Response> | undefined {
		if (this.worker || this.dead) return undefined;
		let worker: WorkerLike;
		try {
			worker = this.factory();
		} catch (error) {
			this.crash(error instanceof Error ? error.message : String(error));
			return Promise.resolve({ type: 'error', message: 'the simulation could not start' });
		}
		this.worker = worker;
		worker.onmessage = (event) => {
			const { id, response } = event.data;
			if (id === 0) {
				this.onPush(response);
				return;
			}
			const resolve = this.pending.get(id);
			this.pending.delete(id);
			resolve?.(response);
		};
		worker.onerror = (event) => {
			event.preventDefault?.();
			this.crash(event.message || 'the simulation stopped unexpectedly');
		};
		worker.onmessageerror = () => this.crash('a message from the simulation could not be read');
		return this.send(this.start());
	}

	/** Sends a request (starting the worker first if needed); resolves with the answer. */
	request(request: Request): Promise<Response> {
		if (this.dead) return Promise.resolve({ type: 'error', message: 'the simulation has stopped: reset the sandbox' });
		this.warmUp();
		return this.send(request);
	}

	private send(request: Request): Promise<Response> {
		const id = this.nextId++;
		return new Promise((resolve) => {
			this.pending.set(id, resolve);
			try {
				this.worker!.postMessage({ id, request });
			} catch (error) {
				this.pending.delete(id);
				resolve({ type: 'error', message: error instanceof Error ? error.message : String(error) });
			}
		});
	}

	private crash(message: string): void {
		if (this.dead) return;
		this.dead = true;
		for (const resolve of this.pending.values()) resolve({ type: 'error', message });
		this.pending.clear();
		this.worker?.terminate();
		this.onCrash(message);
	}

	/** Stops the worker; later requests answer with an error. */
	terminate(): void {
		this.dead = true;
		for (const resolve of this.pending.values()) resolve({ type: 'error', message: 'the sandbox was closed' });
		this.pending.clear();
		this.worker?.terminate();
		this.worker = undefined;
	}
}
