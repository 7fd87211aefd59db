/**
 * The messages between a sandbox island (main thread) and its simulation
 * worker. The worker owns the cluster (sim-core) and everything that costs
 * time; the island only renders views and sends what the reader does.
 * Every message is plain, structured-cloneable data.
 */
import type { ClusterInput, EditSession, ExecResult, NodeView, PodView, Scenario, SchedulingExplanation, TraceEvent } from '@cluster-anatomy/sim-core';

export type Locale = 'en' | 'zh-cn';
export type Speed = 1 | 10 | 60;

/** A node and a pod as the map draws them: sim-core's structured views (cluster/map-view.ts). */
export type { NodeView, PodView } from '@cluster-anatomy/sim-core';

/** A control-plane or node component. */
export interface ComponentView {
	component: string;
	node: string;
	running: boolean;
	/** Made to fail by the reader or the scenario. */
	failing: boolean;
	leader?: boolean;
}

/** A message drawn moving between components (from a trace event with a peer). */
export interface MessageView {
	seq: number;
	atMs: number;
	from: string;
	to: string;
	label: string;
}

export interface TaskView {
	id: string;
	done: boolean;
	/** Each check of the task, in order: whether it holds now and what the cluster has. */
	checks?: Array<{ ok: boolean; found: string }>;
}

/** Everything the island draws, recomputed by the worker after each change. */
export interface ClusterView {
	nowMs: number;
	wallMs: number;
	playing: boolean;
	speed: Speed;
	prompt: string;
	components: ComponentView[];
	nodes: NodeView[];
	pods: PodView[];
	/** The newest messages (bounded), for the map's animation. */
	messages: MessageView[];
	tasks: TaskView[];
	/** Sequence number of the newest trace event. */
	lastSeq: number;
	/** Time-travel bounds: the earliest instant one can go back to, and the latest reached. */
	earliestMs: number;
	latestMs: number;
	/** After travelling back: the history after the moment shown, which any change sets aside (reading does not). */
	later?: { ms: number; commands: number };
	/** After continuing from an earlier moment: what was set aside, which `undo-continue` brings back. */
	setAside?: { atMs: number; ms: number; commands: number };
}

/** Where Next event stepped to and the first thing traced there; `none` when nothing was queued. */
export interface StepOutcome {
	atMs: number;
	component?: string;
	msg?: string;
	none?: boolean;
}

/** One command of a shared session as its sender's terminal showed it. */
export interface TranscriptEntry {
	prompt: string;
	line: string;
	output: string;
	failed: boolean;
}

/** A command the reader ran, as the Story panel lists it to choose whose story to tell. */
export interface StoryChoice {
	/** The origin of what it caused (`input:7`). */
	origin: string;
	line: string;
	/** When its first step happened (virtual ms; -1 if its steps have left the trace). */
	atMs: number;
	/** Whether it changed anything (wrote to etcd), directly or through what it set off. */
	writes: boolean;
}

/** A YAML syntax error at a place in the editor's text (sim-core's YamlError: 1-based line and column over the whole text, all documents). */
export interface YamlProblem {
	line: number;
	column: number;
	/** go-yaml's wording, e.g. `mapping values are not allowed in this context`. */
	message: string;
}

/** What the island asks the worker. Each request has an id; the answer echoes it. */
export type Request =
	| { type: 'start'; scenario: Scenario; seed?: number; locale: Locale; inputs?: ClusterInput[] }
	/**
	 * Runs a command line. `edit`: for a line that opened the editor (an `edit`
	 * response), what the editor opened with and what the reader saved each time
	 * it opened, so far; the line runs (and is recorded) once kubectl needs no
	 * more from the editor.
	 */
	| { type: 'exec'; line: string; stdin?: string; edit?: EditSession }
	| { type: 'complete'; line: string; cursor: number }
	| { type: 'play'; speed: Speed }
	| { type: 'pause' }
	| { type: 'advance'; ms: number }
	| { type: 'step' }
	| { type: 'fault'; verb: 'stop' | 'start'; component: string; node?: string }
	| { type: 'network'; verb: 'partition' | 'heal'; node: string }
	/** Cut a node's power, or power it on (it boots). Recorded and replayed like `fault` and `network`. */
	| { type: 'power'; verb: 'powerOff' | 'powerOn'; node: string }
	/** Set a node's clock `offsetMs` away from true time (0: back in step). */
	| { type: 'clock'; node: string; offsetMs: number }
	| { type: 'apply'; yaml: string }
	| { type: 'explain'; pod: string }
	| { type: 'inspect'; resource: string; namespace?: string; name: string; as: 'yaml' | 'describe' | 'events' }
	/**
	 * Trace events, oldest first. Filters (see `matchesTraceFilter` in
	 * src/sandbox/panels/trace-filter.ts, which the worker should use):
	 * `component` matches the component or any of its sub-identities
	 * (`kube-controller-manager` matches `kube-controller-manager/deployment-controller`,
	 * `kubelet` matches every `kubelet/<node>`); `object` matches events whose
	 * object contains the text. `limit`: only the newest `limit` matching events.
	 */
	| { type: 'trace'; afterSeq?: number; origin?: string; component?: string; object?: string; limit?: number }
	/**
	 * The events of one command's origin: `origin` when given (`input:7`),
	 * else the command `line` last run, else the newest command that changed
	 * something (a read does not push it aside), else the last command.
	 */
	| { type: 'story'; line?: string; origin?: string }
	/** Checks YAML as `kubectl apply` would read it, without applying it: the parse errors, with positions in `yaml` (1-based, whole text). */
	| { type: 'lint'; yaml: string }
	/** The manifests the scenario applied in its setup (`apply:` steps), as starting points for the YAML editor. */
	| { type: 'manifests' }
	| { type: 'travel'; toMs: number }
	/** After travelling back: forget what came after the moment shown and carry on from it (any other change does the same). */
	| { type: 'continue' }
	/** Bring back the history the last continue set aside, and show the moment it continued from. */
	| { type: 'undo-continue' }
	| { type: 'session' }
	| { type: 'reset' };

export type Response =
	/** `stepped`: the answer to `step`; `transcript`: the answer to `start` with a shared session's inputs. */
	| { type: 'view'; view: ClusterView; stepped?: StepOutcome; transcript?: TranscriptEntry[] }
	/** `readInPast`: the line only read, so it ran on a copy of the earlier moment shown, and nothing was recorded. */
	| { type: 'exec'; result: ExecResult; view: ClusterView; readInPast?: boolean }
	/**
	 * The line opened an editor (kubectl edit) and waits for the reader: show
	 * `text` to edit, then send the line again with `edit` plus what was saved
	 * (the text unchanged to close without saving). Nothing has been recorded yet.
	 */
	| { type: 'edit'; line: string; text: string; edit: EditSession; view: ClusterView }
	| { type: 'complete'; candidates: string[]; replaceFrom: number }
	| { type: 'explain'; explanation?: SchedulingExplanation }
	| { type: 'inspect'; text: string }
	| { type: 'trace'; events: TraceEvent[] }
	/**
	 * `line`: the command line the origin stands for, when it is a reader's
	 * command. `recent`: the reader's recent commands, newest first, to choose from.
	 */
	| { type: 'story'; origin?: string; line?: string; events: TraceEvent[]; recent?: StoryChoice[] }
	| { type: 'lint'; problems: YamlProblem[] }
	| { type: 'manifests'; manifests: Array<{ title: string; yaml: string }> }
	| { type: 'session'; scenarioId: string; seed: number; inputs: ClusterInput[] }
	/** `code` names errors the UI explains in its own words (`sandbox.error.<code>`); `message` is the simulation's. */
	| { type: 'error'; message: string; code?: 'session-full' };

/** Main → worker envelope. */
export interface RequestEnvelope {
	id: number;
	request: Request;
}

/** Worker → main envelope: an answer (with the request's id) or a pushed update (id 0) while playing. */
export interface ResponseEnvelope {
	id: number;
	response: Response;
}
