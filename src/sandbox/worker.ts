/**
 * The sandbox's Web Worker: it owns the simulated cluster (through a
 * SandboxSession) so that nothing the simulation does runs on the page's
 * main thread. It answers each request of the protocol (protocol.ts) with
 * the request's id, and while the reader plays it runs the clock in slices:
 * every TICK_MS of wall time it advances `speed × TICK_MS` of virtual time
 * and pushes a fresh view (id 0).
 */
import { SandboxSession } from './session.ts';
import type { Request, RequestEnvelope, Response, ResponseEnvelope } from './protocol.ts';

/** Wall time between two play slices. */
export const TICK_MS = 100;

type StartRequest = Extract<Request, { type: 'start' }>;

let session: SandboxSession | undefined;
let started: StartRequest | undefined;
let timer: ReturnType<typeof setInterval> | undefined;

function post(id: number, response: Response): void {
	const envelope: ResponseEnvelope = { id, response };
	postMessage(envelope);
}

function messageOf(error: unknown): string {
	return error instanceof Error ? error.message : String(error);
}

/** Starts or stops the play timer to match the session. */
function syncTimer(): void {
	if (session?.playing && timer === undefined) timer = setInterval(tick, TICK_MS);
	else if (!session?.playing && timer !== undefined) {
		clearInterval(timer);
		timer = undefined;
	}
}

function tick(): void {
	if (!session?.playing) return syncTimer();
	try {
		if (!session.tick(session.speed * TICK_MS)) post(0, { type: 'error', code: 'session-full', message: 'this session cannot record more inputs' });
		post(0, { type: 'view', view: session.view() });
	} catch (error) {
		session.playing = false;
		post(0, { type: 'error', message: messageOf(error) });
	}
	syncTimer();
}

function handle(request: Request): Response {
	if (request.type === 'start') {
		started = request;
		session = undefined;
		session = new SandboxSession(request.scenario, { seed: request.seed, inputs: request.inputs });
		return session.transcript.length ? { type: 'view', view: session.view(), transcript: session.transcript } : { type: 'view', view: session.view() };
	}
	if (request.type === 'reset') {
		if (!started) return { type: 'error', message: 'the sandbox has not started' };
		session = new SandboxSession(started.scenario, { seed: started.seed });
		return { type: 'view', view: session.view() };
	}
	if (!session) return { type: 'error', message: 'the sandbox has not started' };
	return session.handle(request);
}

self.onmessage = (event: MessageEvent<RequestEnvelope>) => {
	const { id, request } = event.data;
	let response: Response;
	try {
		response = handle(request);
	} catch (error) {
		if (session) session.playing = false;
		response = { type: 'error', message: messageOf(error) };
	}
	post(id, response);
	syncTimer();
};
