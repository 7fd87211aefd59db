/**
 * The sandbox session (src/sandbox/session.ts) in Node: the same scenario,
 * seed and inputs always give the same cluster, whether played live, rebuilt
 * from a share link, or reached again after travelling back in time.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { parseScenario } from '@cluster-anatomy/sim-core';
import { SandboxSession } from '../../src/sandbox/session.ts';

const overview = parseScenario(readFileSync('content/scenarios/start/overview.yaml', 'utf8'), 'start/overview');

/** A short session a reader might have: commands, play slices, a fault, a jump. */
function playSome(session: SandboxSession): void {
	session.handle({ type: 'exec', line: 'kubectl create deployment web --image=nginx:1.27 --replicas=2' });
	for (let i = 0; i < 20; i++) session.tick(1000);
	session.handle({ type: 'fault', verb: 'stop', component: 'kube-scheduler' });
	session.handle({ type: 'exec', line: 'kubectl scale deployment web --replicas=3' });
	session.handle({ type: 'advance', ms: 70_000 });
	session.handle({ type: 'fault', verb: 'start', component: 'kube-scheduler' });
	session.handle({ type: 'advance', ms: 60_000 });
}

describe('a sandbox session', () => {
	it('replays a reader\'s inputs to the same fingerprint (what a share link relies on)', () => {
		// Driven by hand here, as the worker would drive it; paused so that its view compares with the (paused) shared one.
		const live = new SandboxSession(overview, { paused: true });
		playSome(live);
		const replayed = new SandboxSession(overview, { seed: live.seed, inputs: live.inputs() });
		expect(replayed.fingerprint()).toBe(live.fingerprint());
		expect(replayed.view()).toEqual(live.view());
	});

	it('shows the earlier cluster after travelling back, and the same latest state after travelling forward again', () => {
		const session = new SandboxSession(overview, { paused: true, limits: { checkpointEveryMs: 30_000 } });
		const start = session.startMs;
		playSome(session);
		const latest = session.fingerprint();
		const latestView = session.view();
		expect(latestView.pods.filter((p) => p.namespace === 'default' && p.status === 'Running')).toHaveLength(3);

		// Five seconds in, the Deployment exists but no Pod of it runs yet.
		session.travel(start + 5_000);
		expect(session.travelled).toBe(true);
		const early = session.view();
		expect(early.nowMs).toBe(start + 5_000);
		expect(early.latestMs).toBe(latestView.nowMs);
		expect(early.pods.filter((p) => p.namespace === 'default' && p.status === 'Running').length).toBeLessThan(3);

		session.travel(latestView.nowMs);
		expect(session.travelled).toBe(false);
		expect(session.fingerprint()).toBe(latest);
		expect(session.view()).toEqual(latestView);
	});

	it('travelling to a moment equals replaying the inputs up to it from scratch', () => {
		const session = new SandboxSession(overview, { limits: { checkpointEveryMs: 20_000 } });
		playSome(session);
		const target = session.startMs + 95_500;
		session.travel(target);
		session.continueHere();
		const rebuilt = new SandboxSession(overview, { inputs: session.inputs() });
		expect(rebuilt.view().nowMs).toBe(target);
		expect(rebuilt.fingerprint()).toBe(session.fingerprint());
	});

	it('continues from the moment shown: the later inputs are dropped, the new ones kept', () => {
		const session = new SandboxSession(overview);
		session.handle({ type: 'exec', line: 'kubectl create namespace first' });
		session.tick(10_000);
		session.handle({ type: 'exec', line: 'kubectl create namespace second' });
		session.tick(10_000);
		session.travel(session.startMs + 5_000);
		session.handle({ type: 'exec', line: 'kubectl create namespace third' });
		expect(session.travelled).toBe(false);
		const lines = session.inputs().flatMap((i) => (i.kind === 'exec' ? [i.line] : []));
		expect(lines).toEqual(['kubectl create namespace first', 'kubectl create namespace third']);
		const names = session.clusterNow.list('namespaces').map((n) => n.metadata.name);
		expect(names).toContain('third');
		expect(names).not.toContain('second');
	});

	it('keeps checkpoints within their bounds however long it plays', () => {
		const session = new SandboxSession(overview, { limits: { checkpointEveryMs: 5_000, checkpointsMax: 4 } });
		for (let i = 0; i < 60; i++) session.tick(6_000);
		const stats = session.checkpointStats();
		expect(stats.count).toBeLessThanOrEqual(4);
		expect(stats.everyMs).toBeGreaterThan(5_000);
		// Travel still works to any moment, the scenario's start included.
		session.travel(session.startMs);
		expect(session.view().nowMs).toBe(session.startMs);
	});

	it('runs the clock from the start, as a real cluster does; a shared session opens paused where it was shared', () => {
		const fresh = new SandboxSession(overview);
		expect(fresh.view()).toMatchObject({ playing: true, speed: 1 });
		fresh.tick(5_000);
		const shared = new SandboxSession(overview, { seed: fresh.seed, inputs: fresh.inputs() });
		expect(shared.view()).toMatchObject({ playing: false, nowMs: fresh.view().nowMs });
		expect(new SandboxSession(overview, { paused: true }).playing).toBe(false);
	});

	it('stops playing, and says so, when the session cannot record more', () => {
		const session = new SandboxSession(overview, { limits: { inputsMax: 3 } });
		session.handle({ type: 'play', speed: 60 });
		expect([session.tick(6_000), session.tick(6_000), session.tick(6_000), session.tick(6_000)]).toEqual([true, true, true, false]);
		expect(session.playing).toBe(false);
		expect(session.handle({ type: 'exec', line: 'kubectl get pods' })).toMatchObject({ type: 'exec', result: { exitCode: 1, stderr: expect.stringContaining('this session is full') } });
	});

	it('steps to the next queued event', () => {
		const session = new SandboxSession(overview);
		const before = session.view().nowMs;
		session.handle({ type: 'step' });
		const after = session.view().nowMs;
		expect(after).toBeGreaterThan(before);
		expect(after - before).toBeLessThanOrEqual(10_000);
	});

	it('tells the story of the last command from the trace', () => {
		const session = new SandboxSession(overview);
		session.handle({ type: 'exec', line: 'kubectl create deployment story --image=nginx:1.27' });
		session.tick(5_000);
		const story = session.handle({ type: 'story' });
		expect(story.type).toBe('story');
		if (story.type !== 'story') return;
		const actors = new Set(story.events.flatMap((e) => [e.component, e.peer ?? '']).map((c) => c.split('/')[0]));
		for (const actor of ['kubectl', 'kube-apiserver', 'etcd', 'kube-controller-manager', 'kube-scheduler', 'kubelet', 'container-runtime']) expect(actors).toContain(actor);
	});

	it('keeps telling the story of the last command that wrote when a read follows, and lists the recent commands', () => {
		const session = new SandboxSession(overview);
		session.handle({ type: 'exec', line: 'kubectl create deployment story --image=nginx:1.27' });
		session.tick(5_000);
		session.handle({ type: 'exec', line: 'kubectl get pods' });
		const story = session.handle({ type: 'story' });
		if (story.type !== 'story') throw new Error(story.type);
		expect(story.line).toBe('kubectl create deployment story --image=nginx:1.27');
		expect(story.recent?.map((c) => [c.line, c.writes])).toEqual([
			['kubectl get pods', false],
			['kubectl create deployment story --image=nginx:1.27', true],
		]);
		// Asked by origin, the read's own story.
		const read = session.handle({ type: 'story', origin: story.recent![0].origin });
		if (read.type !== 'story') throw new Error(read.type);
		expect(read.line).toBe('kubectl get pods');
		expect(read.events.every((e) => e.origin === story.recent![0].origin)).toBe(true);
	});

	it('answers the inspector without recording anything', () => {
		const session = new SandboxSession(overview);
		const before = session.fingerprint();
		const yaml = session.handle({ type: 'inspect', resource: 'pods', namespace: 'kube-system', name: 'etcd-control-plane', as: 'yaml' });
		expect(yaml).toMatchObject({ type: 'inspect' });
		expect(yaml.type === 'inspect' && yaml.text).toContain('name: etcd-control-plane');
		const events = session.handle({ type: 'inspect', resource: 'nodes', name: 'node-1', as: 'events' });
		expect(events.type === 'inspect' && events.text).toContain('Starting kubelet.');
		const refused = session.handle({ type: 'inspect', resource: 'pods', name: 'x; rm -rf /', as: 'yaml' });
		expect(refused.type === 'inspect' && refused.text).toContain('not a valid name');
		expect(session.fingerprint()).toBe(before);
		expect(session.inputs()).toEqual([]);
	});

	it('sets a node clock back and fixes it: recorded, shown on the view, the node NotReady meanwhile, replayed the same', () => {
		const session = new SandboxSession(overview, { paused: true });
		session.tick(5_000);
		expect(session.handle({ type: 'clock', node: 'node-1', offsetMs: -86_400_000 }).type).toBe('view');
		expect(session.view().nodes.find((n) => n.name === 'node-1')).toMatchObject({ clockOffsetMs: -86_400_000 });
		session.handle({ type: 'advance', ms: 70_000 });
		// Its kubelet can no longer verify the API server's certificate, so it stops posting status.
		expect(session.view().nodes.find((n) => n.name === 'node-1')).toMatchObject({ ready: 'Unknown' });
		expect(session.handle({ type: 'clock', node: 'node-9', offsetMs: 0 })).toEqual({ type: 'error', message: 'no node named node-9' });
		session.handle({ type: 'clock', node: 'node-1', offsetMs: 0 });
		session.handle({ type: 'advance', ms: 20_000 });
		expect(session.view().nodes.find((n) => n.name === 'node-1')).toMatchObject({ clockOffsetMs: 0, ready: 'True' });
		const replayed = new SandboxSession(overview, { seed: session.seed, inputs: session.inputs() });
		expect(replayed.fingerprint()).toBe(session.fingerprint());
	});

	it('powers a node off and on: recorded like the other faults, shown on the view, replayed by a share link and by time travel', () => {
		const session = new SandboxSession(overview, { paused: true, limits: { checkpointEveryMs: 30_000 } });
		session.tick(5_000);
		const off = session.handle({ type: 'power', verb: 'powerOff', node: 'node-2' });
		expect(off.type).toBe('view');
		const offAtMs = session.view().nowMs;
		expect(off.type === 'view' && off.view.nodes.find((n) => n.name === 'node-2')).toMatchObject({ poweredOff: true, partitioned: false });
		expect(off.type === 'view' && off.view.components.filter((c) => c.node === 'node-2').every((c) => !c.running)).toBe(true);
		// The control plane notices only when the 50 s grace for its heartbeats has run out.
		session.handle({ type: 'advance', ms: 70_000 });
		expect(session.view().nodes.find((n) => n.name === 'node-2')).toMatchObject({ poweredOff: true, ready: 'Unknown' });
		// A second press on a stale button: the cluster's own refusal, nothing recorded.
		expect(session.handle({ type: 'power', verb: 'powerOff', node: 'node-2' })).toEqual({ type: 'error', message: 'node-2 is already powered off' });
		session.handle({ type: 'power', verb: 'powerOn', node: 'node-2' });
		session.handle({ type: 'advance', ms: 40_000 });
		expect(session.view().nodes.find((n) => n.name === 'node-2')).toMatchObject({ poweredOff: false, ready: 'True' });
		expect(session.inputs().filter((i) => i.kind === 'powerOff' || i.kind === 'powerOn')).toEqual([
			{ kind: 'powerOff', node: 'node-2' },
			{ kind: 'powerOn', node: 'node-2' },
		]);

		const replayed = new SandboxSession(overview, { seed: session.seed, inputs: session.inputs() });
		expect(replayed.fingerprint()).toBe(session.fingerprint());
		expect(replayed.view()).toEqual(session.view());

		// Back to while it was off, and forward again to the same end.
		const latest = session.fingerprint();
		session.travel(offAtMs + 30_000);
		expect(session.view().nodes.find((n) => n.name === 'node-2')?.poweredOff).toBe(true);
		session.travel(session.view().latestMs);
		expect(session.fingerprint()).toBe(latest);
	});

	it('refuses a fault that makes no sense with the cluster\'s own message, recording nothing', () => {
		const session = new SandboxSession(overview);
		const answer = session.handle({ type: 'fault', verb: 'stop', component: 'kubelet' });
		expect(answer).toEqual({ type: 'error', message: 'kubelet runs on every node: say which' });
		expect(session.inputs()).toEqual([]);
	});

	it('opens kubectl edit\'s editor without recording anything, reopens it after an invalid save, and records the line once saved', () => {
		const session = new SandboxSession(overview, { paused: true });
		session.handle({ type: 'exec', line: 'kubectl create deployment web --image=nginx:1.27 --replicas=2' });
		const before = session.inputs().length;

		const opened = session.handle({ type: 'exec', line: 'kubectl edit deployment web' });
		if (opened.type !== 'edit') throw new Error(`expected the editor, got ${JSON.stringify(opened)}`);
		expect(opened.text).toMatch(/^# Please edit the object below\./);
		expect(opened.text).toMatch(/^ {2}replicas: 2$/m);
		expect(session.inputs()).toHaveLength(before);

		// The reader takes their time: the clock runs while the editor is open.
		session.tick(5_000);
		const invalid = session.handle({ type: 'exec', line: 'kubectl edit deployment web', edit: { ...opened.edit, saves: [opened.text.replace(/^ {2}replicas: 2$/m, '  replicas: -1')] } });
		if (invalid.type !== 'edit') throw new Error(`expected the editor again, got ${JSON.stringify(invalid)}`);
		expect(invalid.text).toMatch(/^# deployments\.apps "web" was not valid:$/m);
		expect(invalid.text).toMatch(/^# \* spec\.replicas: Invalid value: -1: must be greater than or equal to 0$/m);
		expect(invalid.edit.saves).toHaveLength(1);
		expect(session.inputs()).toHaveLength(before + 1); // only the tick

		const saved = session.handle({ type: 'exec', line: 'kubectl edit deployment web', edit: { ...invalid.edit, saves: [...invalid.edit.saves, invalid.text.replace(/^ {2}replicas: -1$/m, '  replicas: 3')] } });
		if (saved.type !== 'exec') throw new Error(`expected the line to run, got ${JSON.stringify(saved)}`);
		// As on a real terminal: the invalid save's error came before the editor reopened.
		expect(saved.result.output).toBe('error: deployments.apps "web" is invalid\ndeployment.apps/web edited\n');
		expect(session.inputs().at(-1)).toMatchObject({ kind: 'exec', line: 'kubectl edit deployment web', edit: { saves: [expect.any(String), expect.any(String)] } });
		expect(session.handle({ type: 'exec', line: 'kubectl get deployment web -o jsonpath={.spec.replicas}' })).toMatchObject({ result: { stdout: '3' } });

		// A share link's replay edits the same way.
		const replayed = new SandboxSession(overview, { seed: session.seed, inputs: session.inputs() });
		expect(replayed.fingerprint()).toBe(session.fingerprint());
	});

	it('runs kubectl edit at once when there is nothing to edit, and closing unchanged cancels', () => {
		const session = new SandboxSession(overview, { paused: true });
		const missing = session.handle({ type: 'exec', line: 'kubectl edit deployment nothing' });
		expect(missing).toMatchObject({ type: 'exec', result: { stderr: 'Error from server (NotFound): deployments.apps "nothing" not found\n', exitCode: 1 } });
		const opened = session.handle({ type: 'exec', line: 'kubectl edit namespace default' });
		if (opened.type !== 'edit') throw new Error('expected the editor');
		const closed = session.handle({ type: 'exec', line: 'kubectl edit namespace default', edit: { ...opened.edit, saves: [opened.text] } });
		expect(closed).toMatchObject({ type: 'exec', result: { stderr: 'Edit cancelled, no changes made.\n', exitCode: 0 } });
	});
});
