/**
 * One reader's session with one scenario: the cluster (sim-core), the timed
 * log of what the reader did, checkpoints for time travel, and the answers
 * to every request of the worker protocol. It has no timers and no DOM: the
 * worker (worker.ts) drives it, and the unit tests drive it directly in Node.
 *
 * Time travel. The session keeps the log of the reader's inputs with the
 * virtual time each began, and a few checkpoints (`cluster.snapshot()`,
 * thinned to stay within a memory budget). To show the cluster as it was at
 * T, it restores the newest checkpoint taken at or before T and replays the
 * logged inputs that began before T, cutting the advance that spans T. The
 * later inputs are kept until the reader changes something: then they are
 * dropped and the session carries on from T ("continue from there").
 *
 * Determinism. The cluster records every input itself, and an input's
 * position decides the origin of what it causes (`input:N`), so replays must
 * apply exactly the same inputs in the same order: the log is never merged
 * or reordered, only cut. Same scenario, seed and inputs give the same
 * fingerprint (tests/site/sandbox-session.test.ts checks it).
 */
import { findResource, readsOnly, restoreCluster, startScenario, type Cluster, type ClusterInput, type ExecResult, type Scenario } from '@cluster-anatomy/sim-core';
import type { ClusterView, Request, Response, Speed, StepOutcome, TranscriptEntry } from './protocol.ts';
import { buildView } from './view.ts';
import { lintYaml, scenarioManifests } from './yaml-check.ts';
import { matchesTraceFilter } from './panels/trace-filter.ts';
import { defaultStory, storyChoices } from './panels/story.ts';
import { SHARE_LIMITS } from './share.ts';

/** An input and the virtual time it began. */
export interface TimedInput {
	input: ClusterInput;
	atMs: number;
}

/** Bounds of one session. */
export interface SessionLimits {
	inputsMax: number;
	checkpointsMax: number;
	checkpointCharsMax: number;
	checkpointEveryMs: number;
	traceEventsMax: number;
	storiesMax: number;
}

export const SESSION_LIMITS: Readonly<SessionLimits> = {
	/** Reader inputs kept (playing at 1x records ten a second: about 80 minutes). */
	inputsMax: 50_000,
	/** Checkpoints kept at most. */
	checkpointsMax: 12,
	/** Characters of snapshot JSON kept across all checkpoints (about that many bytes of memory). */
	checkpointCharsMax: 48_000_000,
	/** Virtual time between two checkpoints at first; doubles each time the checkpoints are thinned. */
	checkpointEveryMs: 60_000,
	/** Trace events one `trace` or `story` answer carries at most. */
	traceEventsMax: 2_000,
	/** Commands remembered for "the story of a request". */
	storiesMax: 50,
};


/** The later history set aside when the reader continued from an earlier moment, kept so that it can be brought back. */
interface SetAside {
	branch: TimedInput[];
	checkpoints: Checkpoint[];
	checkpointEveryMs: number;
	stories: Array<{ line: string; index: number }>;
	branchEndMs: number;
	/** The moment the reader continued from, and what was set aside after it. */
	atMs: number;
	ms: number;
	commands: number;
}

interface Checkpoint {
	atMs: number;
	/** Reader inputs applied when it was taken. */
	count: number;
	snapshot: string;
}

/** Times one command's editor may be saved (each invalid save reopens it), and the characters of one save: what a share link carries. */
const EDITOR_SAVES_MAX = SHARE_LIMITS.editorSavesMax;
const EDITOR_TEXT_MAX = SHARE_LIMITS.textCharsMax;

/** A name the inspector may pass on to kubectl (no spaces, no shell syntax). */
const SAFE_NAME = /^[A-Za-z0-9][A-Za-z0-9._:/-]{0,252}$/;

/** Where Next event stepped to, and the first thing traced there (a timer may fire with nothing to trace). */

export interface SessionOptions {
	seed?: number;
	/** Inputs to replay first (a shared session). */
	inputs?: readonly ClusterInput[];
	limits?: Partial<SessionLimits>;
	/**
	 * Whether the clock waits for the reader. A fresh session runs at 1x from
	 * the start, as a real cluster does; a shared session opens paused at the
	 * moment it was shared, so its reader sees what the sender saw.
	 */
	paused?: boolean;
}

export class SandboxSession {
	readonly scenario: Scenario;
	readonly seed: number;
	/** Problems met running the scenario's setup (a broken scenario). */
	readonly problems: string[];
	/** Virtual time at which the reader took over. */
	readonly startMs: number;
	playing = false;
	speed: Speed = 1;

	private cluster: Cluster;
	private readonly limits: SessionLimits;
	/** Inputs the scenario's setup recorded before the reader arrived. */
	private readonly setupCount: number;
	/** Everything the reader did, as far as the session reached. */
	private branch: TimedInput[] = [];
	/** After travelling back: what the current cluster has applied (a prefix of the branch, its last advance maybe cut). */
	private applied: TimedInput[] | null = null;
	/** Entries of `applied` that are whole entries of the branch. */
	private appliedWhole = 0;
	/** Virtual time at the end of the branch. */
	private branchEndMs: number;
	private checkpoints: Checkpoint[] = [];
	private checkpointEveryMs: number;
	/** Recent commands and the origin of what each caused. */
	private stories: Array<{ line: string; index: number }> = [];
	/** After continuing from an earlier moment: the later history, until the reader travels again. */
	private setAside: SetAside | undefined;
	/** The shared session's commands as its terminal showed them (empty for a fresh session). */
	readonly transcript: TranscriptEntry[] = [];

	constructor(scenario: Scenario, options: SessionOptions = {}) {
		this.scenario = scenario;
		this.limits = { ...SESSION_LIMITS, ...options.limits };
		this.checkpointEveryMs = this.limits.checkpointEveryMs;
		this.seed = options.seed ?? scenario.cluster?.seed ?? 1;
		const run = startScenario(scenario, { seed: this.seed });
		this.cluster = run.cluster;
		this.problems = run.problems;
		this.setupCount = run.cluster.inputs().length;
		this.startMs = run.cluster.now();
		this.branchEndMs = this.startMs;
		this.takeCheckpoint();
		for (const input of options.inputs ?? []) {
			const prompt = this.cluster.prompt();
			const { result } = this.record(input);
			if (input.kind === 'exec' && result) this.transcript.push({ prompt, line: input.line, output: result.output, failed: result.exitCode !== 0 });
		}
		this.playing = !(options.paused ?? (options.inputs?.length ?? 0) > 0);
	}

	// ---- state ---------------------------------------------------------------------

	/** The reader's inputs on the current branch (what a share link carries). */
	inputs(): ClusterInput[] {
		return this.current().map((t) => t.input);
	}

	/** The timed inputs the current cluster has applied. */
	timedInputs(): readonly TimedInput[] {
		return this.current();
	}

	/** Whether the reader is looking at an earlier moment (later inputs still kept). */
	get travelled(): boolean {
		return this.applied !== null;
	}

	fingerprint(): string {
		return this.cluster.fingerprint();
	}

	/** The cluster as it is now (tests and the worker read it; the UI never sees it). */
	get clusterNow(): Cluster {
		return this.cluster;
	}

	view(): ClusterView {
		return buildView(this.cluster, {
			playing: this.playing,
			speed: this.speed,
			earliestMs: this.startMs,
			latestMs: this.applied ? this.branchEndMs : this.cluster.now(),
			tasks: this.scenario.tasks,
			later: this.applied ? this.later() : undefined,
			setAside: this.setAside && { atMs: this.setAside.atMs, ms: this.setAside.ms, commands: this.setAside.commands },
		});
	}

	/** After travelling back: how much history lies after the moment shown (what continuing from here sets aside). */
	private later(): { ms: number; commands: number } {
		const now = this.cluster.now();
		const commands = this.branch.slice(this.appliedWhole).filter((t) => t.input.kind === 'exec' && t.atMs >= now).length;
		return { ms: Math.max(0, this.branchEndMs - now), commands };
	}

	private current(): TimedInput[] {
		return this.applied ?? this.branch;
	}

	// ---- changes -------------------------------------------------------------------

	/**
	 * Applies one reader input: first forgets what came after the moment shown
	 * (after travelling back), then logs it with its start time.
	 */
	record(input: ClusterInput): { recorded: boolean; result?: ExecResult; error?: string } {
		this.continueHere();
		if (this.branch.length >= this.limits.inputsMax) {
			return { recorded: false, error: `this session is full (${this.limits.inputsMax} inputs): reset the sandbox to go on` };
		}
		const atMs = this.cluster.now();
		const outcome = this.cluster.apply(input);
		if (outcome.recorded) {
			this.branch.push({ input, atMs });
			if (input.kind === 'exec') {
				// The cluster numbers inputs from 1, the scenario's setup first.
				this.stories.push({ line: input.line, index: this.setupCount + this.branch.length });
				if (this.stories.length > this.limits.storiesMax) this.stories.shift();
			}
		}
		this.branchEndMs = this.cluster.now();
		this.maybeCheckpoint();
		return outcome;
	}

	/** Runs the clock for one play slice. False (and paused) when the session cannot record more. */
	tick(ms: number): boolean {
		const { recorded } = this.record({ kind: 'advance', ms });
		if (!recorded) this.playing = false;
		return recorded;
	}

	/**
	 * Runs the clock to the next queued event (heartbeats included) and says
	 * what happened then: the first thing traced at that moment. Undefined
	 * when nothing is queued.
	 */
	step(): StepOutcome | undefined {
		// The kernel's queue is read, never changed: the advance below is the input.
		const next = this.cluster.nextEventAtMs();
		if (next === undefined) return undefined;
		const events = this.cluster.trace({});
		const afterSeq = events.length ? events[events.length - 1].seq : -1;
		this.record({ kind: 'advance', ms: Math.max(0, next - this.cluster.now()) });
		const first = this.cluster.trace({ afterSeq })[0];
		return { atMs: this.cluster.now(), component: first?.component, msg: first?.msg };
	}

	/** After travelling back: drops the later inputs and carries on from the moment shown. */
	continueHere(): void {
		if (!this.applied) return;
		const later = this.later();
		this.setAside = {
			branch: this.branch,
			checkpoints: this.checkpoints,
			checkpointEveryMs: this.checkpointEveryMs,
			stories: this.stories,
			branchEndMs: this.branchEndMs,
			atMs: this.cluster.now(),
			...later,
		};
		const keepCheckpoints = this.appliedWhole;
		this.branch = this.applied;
		this.applied = null;
		this.branchEndMs = this.cluster.now();
		this.checkpoints = this.checkpoints.filter((c) => c.count <= keepCheckpoints && c.atMs <= this.branchEndMs);
		this.stories = this.stories.filter((s) => s.index <= this.setupCount + this.branch.length);
	}

	/**
	 * Shows the cluster as it was at `toMs` (clamped to the session's span):
	 * restores the newest checkpoint at or before it and replays the inputs
	 * that began before it. At the end of the branch, rebuilds the latest state.
	 */
	travel(toMs: number): void {
		this.playing = false;
		this.setAside = undefined;
		const target = Math.max(this.startMs, Math.min(Math.round(toMs), this.branchEndMs));
		const toEnd = target >= this.branchEndMs;
		if (toEnd && !this.applied) return;
		const checkpoint = [...this.checkpoints].reverse().find((c) => c.atMs <= target) ?? this.checkpoints[0];
		const cluster = restoreCluster(JSON.parse(checkpoint.snapshot));
		const applied = this.branch.slice(0, checkpoint.count);
		let whole = applied.length;
		for (let i = checkpoint.count; i < this.branch.length; i++) {
			const entry = this.branch[i];
			if (!toEnd && entry.atMs >= target) break;
			if (!toEnd && entry.input.kind === 'advance' && entry.atMs + entry.input.ms > target) {
				const cut: ClusterInput = { kind: 'advance', ms: target - entry.atMs };
				cluster.apply(cut);
				applied.push({ input: cut, atMs: entry.atMs });
				break;
			}
			cluster.apply(entry.input);
			applied.push(entry);
			whole++;
		}
		this.cluster = cluster;
		this.applied = toEnd ? null : applied;
		this.appliedWhole = whole;
	}

	/**
	 * Brings back the history set aside by the last "continue from here" and
	 * shows the moment the reader continued from, as before: what was done
	 * since is dropped instead. False when nothing is set aside.
	 */
	undoContinue(): boolean {
		const aside = this.setAside;
		if (!aside) return false;
		this.branch = aside.branch;
		this.checkpoints = aside.checkpoints;
		this.checkpointEveryMs = aside.checkpointEveryMs;
		this.stories = aside.stories;
		this.branchEndMs = aside.branchEndMs;
		this.applied = null;
		this.travel(aside.atMs);
		return true;
	}

	/**
	 * While the reader looks at an earlier moment, a line that only reads
	 * (`kubectl get pods`: see sim-core's `readsOnly`) runs on a copy of that
	 * moment, so reading never sets the later history aside. Undefined for
	 * any other line, which continues from here as every change does.
	 */
	private readInThePast(request: Extract<Request, { type: 'exec' }>): ExecResult | undefined {
		if (!this.applied || request.stdin !== undefined || request.edit !== undefined || !readsOnly(request.line)) return undefined;
		const copy = restoreCluster(JSON.parse(JSON.stringify(this.cluster.snapshot())));
		return copy.exec(request.line);
	}

	// ---- checkpoints -----------------------------------------------------------------

	private takeCheckpoint(): void {
		this.checkpoints.push({ atMs: this.cluster.now(), count: this.branch.length, snapshot: JSON.stringify(this.cluster.snapshot()) });
		this.thinCheckpoints();
	}

	private maybeCheckpoint(): void {
		const last = this.checkpoints[this.checkpoints.length - 1];
		if (this.cluster.now() - last.atMs >= this.checkpointEveryMs) this.takeCheckpoint();
	}

	/** Keeps the first checkpoint (the scenario's start) and the newest; drops every other one in between while over budget. */
	private thinCheckpoints(): void {
		const chars = () => this.checkpoints.reduce((n, c) => n + c.snapshot.length, 0);
		while (this.checkpoints.length > 2 && (this.checkpoints.length > this.limits.checkpointsMax || chars() > this.limits.checkpointCharsMax)) {
			this.checkpoints = this.checkpoints.filter((_, i, all) => i === 0 || i === all.length - 1 || i % 2 === 0);
			this.checkpointEveryMs *= 2;
		}
	}

	/** How many checkpoints are kept and their total size (for tests and the benchmark). */
	checkpointStats(): { count: number; chars: number; everyMs: number } {
		return { count: this.checkpoints.length, chars: this.checkpoints.reduce((n, c) => n + c.snapshot.length, 0), everyMs: this.checkpointEveryMs };
	}

	// ---- reading -------------------------------------------------------------------

	/**
	 * `kubectl edit` opens the reader's editor in the middle of a line, and the
	 * reader takes their time in it while the clock runs. So the line first runs
	 * on a copy of the cluster with the saves made so far: if the copy's kubectl
	 * opened the editor once more than it was given saves (the first time, or
	 * again after an invalid save), the reader is asked for the next one and
	 * nothing is recorded; otherwise the line runs for real with every save,
	 * exactly as its replay will.
	 */
	private editorWaiting(request: Extract<Request, { type: 'exec' }>): Response | undefined {
		if (request.stdin !== undefined || !/(^|[\s;&|(])kubectl\b[^;&|]*\bedit\b/.test(request.line)) return undefined;
		const edit = request.edit ?? { saves: [] };
		if (edit.saves.length > EDITOR_SAVES_MAX) return { type: 'error', message: `error: the editor was saved more than ${EDITOR_SAVES_MAX} times in one command` };
		if ([edit.opened ?? '', ...edit.saves].some((text) => text.length > EDITOR_TEXT_MAX)) return { type: 'error', message: `error: the edited text is longer than ${EDITOR_TEXT_MAX} characters` };
		this.continueHere();
		const copy = restoreCluster(JSON.parse(JSON.stringify(this.cluster.snapshot())));
		const opened = copy.exec(request.line, { edit }).editor ?? [];
		if (opened.length <= edit.saves.length) return undefined;
		return { type: 'edit', line: request.line, text: opened[edit.saves.length], edit: { opened: edit.opened ?? opened[0], saves: edit.saves }, view: this.view() };
	}

	/** A read-only kubectl command for the inspector; never recorded. */
	private inspect(resource: string, namespace: string | undefined, name: string, as: 'yaml' | 'describe' | 'events'): string {
		for (const part of [resource, name, namespace ?? 'default']) if (!SAFE_NAME.test(part)) return `error: "${part}" is not a valid name\n`;
		const ns = namespace ? ` --namespace ${namespace}` : '';
		let line: string;
		if (as === 'yaml') line = `kubectl get ${resource} ${name}${ns} -o yaml`;
		else if (as === 'describe') line = `kubectl describe ${resource} ${name}${ns}`;
		else {
			const kind = findResource(resource)?.kind;
			line = `kubectl get events${namespace ? ns : ' --namespace default'} --field-selector involvedObject.name=${name}${kind ? `,involvedObject.kind=${kind}` : ''}`;
		}
		const result = this.cluster.observe(line);
		if (result.exitCode === 0) return result.stdout;
		if (as === 'yaml') {
			// The API server's cache cannot be read (it is down): show what etcd holds.
			const obj = this.cluster.get(resource, namespace, name);
			if (obj) return JSON.stringify(obj, null, 2) + '\n';
		}
		return result.output;
	}

	/** Answers one request of the worker protocol (everything but `start`, which builds the session). */
	handle(request: Exclude<Request, { type: 'start' }>): Response {
		switch (request.type) {
			case 'exec': {
				const past = this.readInThePast(request);
				if (past) return { type: 'exec', result: past, view: this.view(), readInPast: true };
				const waiting = this.editorWaiting(request);
				if (waiting) return waiting;
				const input: ClusterInput = { kind: 'exec', line: request.line };
				if (request.stdin !== undefined) input.stdin = request.stdin;
				if (request.edit !== undefined) input.edit = request.edit;
				const outcome = this.record(input);
				const result = outcome.result ?? { stdout: '', stderr: `${outcome.error ?? 'not run'}\n`, output: `${outcome.error ?? 'not run'}\n`, exitCode: 1 };
				return { type: 'exec', result, view: this.view() };
			}
			case 'apply': {
				const outcome = this.record({ kind: 'exec', line: 'kubectl apply -f -', stdin: request.yaml });
				const result = outcome.result ?? { stdout: '', stderr: `${outcome.error ?? 'not applied'}\n`, output: `${outcome.error ?? 'not applied'}\n`, exitCode: 1 };
				return { type: 'exec', result, view: this.view() };
			}
			case 'complete': {
				const completion = this.cluster.complete(request.line, request.cursor);
				return { type: 'complete', candidates: completion.candidates, replaceFrom: completion.replaceFrom };
			}
			case 'play':
				this.continueHere();
				this.playing = true;
				this.speed = request.speed;
				return { type: 'view', view: this.view() };
			case 'pause':
				this.playing = false;
				return { type: 'view', view: this.view() };
			case 'advance': {
				const ms = Math.max(0, Math.min(Math.round(request.ms), 24 * 3_600_000));
				this.record({ kind: 'advance', ms });
				return { type: 'view', view: this.view() };
			}
			case 'step': {
				const stepped = this.step();
				return { type: 'view', view: this.view(), stepped: stepped ?? { atMs: this.cluster.now(), none: true } };
			}
			case 'fault': {
				const outcome = this.record(request.node ? { kind: request.verb, component: request.component, node: request.node } : { kind: request.verb, component: request.component });
				return outcome.error ? { type: 'error', message: outcome.error } : { type: 'view', view: this.view() };
			}
			case 'network': {
				const outcome = this.record({ kind: request.verb, node: request.node });
				return outcome.error ? { type: 'error', message: outcome.error } : { type: 'view', view: this.view() };
			}
			case 'power': {
				const outcome = this.record({ kind: request.verb, node: request.node });
				return outcome.error ? { type: 'error', message: outcome.error } : { type: 'view', view: this.view() };
			}
			case 'clock': {
				const outcome = this.record({ kind: 'setClock', node: request.node, offsetMs: request.offsetMs });
				return outcome.error ? { type: 'error', message: outcome.error } : { type: 'view', view: this.view() };
			}
			case 'explain':
				return { type: 'explain', explanation: this.cluster.explain(request.pod) };
			case 'inspect':
				return { type: 'inspect', text: this.inspect(request.resource, request.namespace, request.name, request.as) };
			case 'trace': {
				const filter = { component: request.component, object: request.object };
				const events = this.cluster.trace({ afterSeq: request.afterSeq, origin: request.origin }).filter((e) => matchesTraceFilter(e, filter));
				const limit = Math.min(request.limit ?? this.limits.traceEventsMax, this.limits.traceEventsMax);
				return { type: 'trace', events: events.slice(-Math.max(0, limit)) };
			}
			case 'story': {
				const known = this.stories.filter((s) => s.index <= this.setupCount + this.current().length);
				const recent = storyChoices(known, this.cluster.trace({}));
				const story =
					request.origin !== undefined
						? known.find((s) => `input:${s.index}` === request.origin)
						: request.line === undefined
							? known.find((s) => `input:${s.index}` === defaultStory(recent)?.origin)
							: [...known].reverse().find((s) => s.line === request.line);
				// An origin that is not a reader's command (a fault, the scenario's setup) still has a story, without a line.
				const origin = story ? `input:${story.index}` : request.origin;
				if (!origin) return { type: 'story', events: [], recent };
				return { type: 'story', origin, line: story?.line, events: this.cluster.trace({ origin }).slice(0, this.limits.traceEventsMax), recent };
			}
			case 'lint':
				return { type: 'lint', problems: lintYaml(request.yaml) };
			case 'manifests':
				return { type: 'manifests', manifests: scenarioManifests(this.scenario) };
			case 'travel':
				this.travel(request.toMs);
				return { type: 'view', view: this.view() };
			case 'continue':
				this.continueHere();
				return { type: 'view', view: this.view() };
			case 'undo-continue':
				this.undoContinue();
				return { type: 'view', view: this.view() };
			case 'session':
				return { type: 'session', scenarioId: this.scenario.id, seed: this.seed, inputs: this.inputs() };
			case 'reset':
				return { type: 'error', message: 'reset is handled by the worker' };
		}
		return { type: 'error', message: `unknown request ${(request as { type?: unknown }).type}` };
	}
}
