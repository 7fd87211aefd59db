/**
 * Looking at an earlier moment (src/sandbox/session.ts): reading there never
 * sets the later history aside, a change does and says how much, undo
 * brings it back; Next event says what it stepped to; a shared session
 * comes with the transcript its sender's terminal showed.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { parseScenario } from '@cluster-anatomy/sim-core';
import { SandboxSession } from '../../src/sandbox/session.ts';

const overview = parseScenario(readFileSync('content/scenarios/start/overview.yaml', 'utf8'), 'start/overview');

/** Two namespaces created 10 s apart, then 2 minutes of clock. */
function twoNamespaces(): SandboxSession {
	const session = new SandboxSession(overview, { paused: true });
	session.handle({ type: 'exec', line: 'kubectl create namespace first' });
	session.handle({ type: 'advance', ms: 10_000 });
	session.handle({ type: 'exec', line: 'kubectl create namespace second' });
	session.handle({ type: 'advance', ms: 120_000 });
	return session;
}

const namespaces = (session: SandboxSession) => session.clusterNow.list('namespaces').map((n) => n.metadata.name);

describe('reading in the past', () => {
	it('answers kubectl get as the earlier moment would, without setting the later history aside', () => {
		const session = twoNamespaces();
		const latest = session.view();
		session.travel(session.startMs + 5_000);
		const before = session.fingerprint();
		const answer = session.handle({ type: 'exec', line: 'kubectl get namespaces' });
		expect(answer.type).toBe('exec');
		if (answer.type !== 'exec') return;
		expect(answer.readInPast).toBe(true);
		expect(answer.result.stdout).toContain('first');
		expect(answer.result.stdout).not.toContain('second');
		// Still in the past, with the later history intact.
		expect(session.travelled).toBe(true);
		expect(session.fingerprint()).toBe(before);
		expect(answer.view.later).toEqual({ ms: latest.nowMs - (session.startMs + 5_000), commands: 1 });
		session.travel(latest.nowMs);
		expect(namespaces(session)).toContain('second');
	});

	it('a change continues from the moment shown, says what it set aside, and undo brings it back', () => {
		const session = twoNamespaces();
		const latest = session.view();
		const latestPrint = session.fingerprint();
		const at = session.startMs + 5_000;
		session.travel(at);
		const answer = session.handle({ type: 'exec', line: 'kubectl create namespace third' });
		if (answer.type !== 'exec') throw new Error(answer.type);
		expect(answer.readInPast).toBeUndefined();
		expect(session.travelled).toBe(false);
		expect(answer.view.setAside).toEqual({ atMs: at, ms: latest.nowMs - at, commands: 1 });
		expect(namespaces(session)).toContain('third');
		expect(namespaces(session)).not.toContain('second');

		const undone = session.handle({ type: 'undo-continue' });
		if (undone.type !== 'view') throw new Error(undone.type);
		// Back at the moment the reader continued from, the later history restored and the change gone.
		expect(undone.view.nowMs).toBe(at);
		expect(undone.view.setAside).toBeUndefined();
		expect(undone.view.later?.commands).toBe(1);
		expect(namespaces(session)).not.toContain('third');
		session.travel(latest.nowMs);
		expect(session.fingerprint()).toBe(latestPrint);
		expect(namespaces(session)).toContain('second');
	});

	it('Play from the past sets the later history aside too, and travelling again forgets the undo', () => {
		const session = twoNamespaces();
		session.travel(session.startMs + 5_000);
		const played = session.handle({ type: 'play', speed: 1 });
		if (played.type !== 'view') throw new Error(played.type);
		expect(played.view.setAside?.commands).toBe(1);
		session.travel(session.startMs);
		expect(session.view().setAside).toBeUndefined();
	});
});

describe('Next event', () => {
	it('says what it stepped to: the moment and the first thing traced there', () => {
		const session = new SandboxSession(overview, { paused: true });
		const from = session.view().nowMs;
		const answer = session.handle({ type: 'step' });
		if (answer.type !== 'view') throw new Error(answer.type);
		expect(answer.stepped?.atMs).toBe(answer.view.nowMs);
		expect(answer.view.nowMs).toBeGreaterThanOrEqual(from);
		expect(answer.stepped?.none).toBeUndefined();
		// Whatever fired, the trace holds it at that moment.
		const traced = session.clusterNow.trace({}).filter((e) => e.atMs === answer.view.nowMs);
		if (answer.stepped?.component) expect(traced.map((e) => e.component)).toContain(answer.stepped.component);
	});
});

describe('a shared session', () => {
	it('comes with what its terminal showed: each command with its prompt and output', () => {
		const sender = new SandboxSession(overview, { paused: true });
		sender.handle({ type: 'exec', line: 'kubectl create deployment web --image=nginx:1.27' });
		sender.handle({ type: 'advance', ms: 20_000 });
		sender.handle({ type: 'exec', line: 'kubectl get deployment web' });
		sender.handle({ type: 'exec', line: 'kubectl get pod nope' });
		const shared = new SandboxSession(overview, { seed: sender.seed, inputs: sender.inputs() });
		expect(shared.transcript.map((e) => e.line)).toEqual(['kubectl create deployment web --image=nginx:1.27', 'kubectl get deployment web', 'kubectl get pod nope']);
		expect(shared.transcript[0]).toMatchObject({ prompt: 'reader@workstation:~$ ', output: 'deployment.apps/web created\n', failed: false });
		expect(shared.transcript[1].output).toMatch(/^NAME\s+READY\s+UP-TO-DATE\s+AVAILABLE\s+AGE\nweb\s+1\/1/);
		expect(shared.transcript[2]).toMatchObject({ output: 'Error from server (NotFound): pods "nope" not found\n', failed: true });
		expect(new SandboxSession(overview).transcript).toEqual([]);
	});
});
