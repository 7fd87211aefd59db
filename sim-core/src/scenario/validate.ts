/**
 * Checks a scenario file with errors an author can act on: every problem is
 * reported with its path in the file (`setup[2].stop`), unknown fields are
 * errors (a typo must not be silently ignored), durations are Go-style
 * (`30s`, `2m`), both locales are required for every text.
 *
 * Mirrors nothing upstream: the site's scenario checker.
 */
import { parseGoDurationMs, tryParseGoDurationMs } from '../golang/duration.ts';
import { parseYaml, YamlError } from '../yaml/index.ts';
import type { ComponentName, PanelName, Scenario, StateCheck } from './types.ts';
import { MAX_CONTROL_PLANE_REPLICAS, MAX_ETCD_MEMBERS } from '../cluster/options.ts';

export const COMPONENTS: readonly ComponentName[] = ['kube-apiserver', 'etcd', 'kube-scheduler', 'kube-controller-manager', 'cloud-controller-manager', 'kubelet', 'kube-proxy', 'container-runtime'];
export const NODE_COMPONENTS: readonly ComponentName[] = ['kubelet', 'kube-proxy', 'container-runtime'];
export const PANELS: readonly PanelName[] = ['map', 'terminal', 'timeline', 'story', 'faults', 'why', 'tasks', 'yaml', 'inspector'];

export class ScenarioError extends Error {
	constructor(
		readonly scenarioId: string,
		readonly problems: string[],
	) {
		super(`scenario "${scenarioId}" is invalid:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
		this.name = 'ScenarioError';
	}
}

type Obj = Record<string, unknown>;

class Checker {
	readonly problems: string[] = [];

	problem(path: string, message: string): void {
		this.problems.push(`${path}: ${message}`);
	}

	object(value: unknown, path: string, allowed: string[], required: string[] = []): Obj | undefined {
		if (typeof value !== 'object' || value === null || Array.isArray(value)) {
			this.problem(path, 'must be a mapping');
			return undefined;
		}
		const obj = value as Obj;
		for (const key of Object.keys(obj)) if (!allowed.includes(key)) this.problem(`${path}.${key}`, `unknown field (allowed: ${allowed.join(', ')})`);
		for (const key of required) if (obj[key] === undefined) this.problem(`${path}.${key}`, 'is required');
		return obj;
	}

	string(value: unknown, path: string): string | undefined {
		if (typeof value !== 'string' || value.trim() === '') {
			this.problem(path, 'must be a non-empty string');
			return undefined;
		}
		return value;
	}

	localized(value: unknown, path: string): void {
		const obj = this.object(value, path, ['en', 'zh-cn'], ['en', 'zh-cn']);
		if (!obj) return;
		if (obj.en !== undefined) this.string(obj.en, `${path}.en`);
		if (obj['zh-cn'] !== undefined) this.string(obj['zh-cn'], `${path}.zh-cn`);
	}

	duration(value: unknown, path: string): void {
		if (typeof value !== 'string') {
			this.problem(path, 'must be a duration such as "30s" or "2m"');
			return;
		}
		try {
			if (parseGoDurationMs(value) < 0) this.problem(path, 'must not be negative');
		} catch (error) {
			this.problem(path, (error as Error).message);
		}
	}

	array(value: unknown, path: string): unknown[] {
		if (!Array.isArray(value)) {
			this.problem(path, 'must be a list');
			return [];
		}
		return value;
	}

	component(value: unknown, path: string, node: unknown, nodes: string[]): void {
		if (!COMPONENTS.includes(value as ComponentName)) {
			this.problem(path, `must be one of ${COMPONENTS.join(', ')}`);
			return;
		}
		const perNode = NODE_COMPONENTS.includes(value as ComponentName);
		if (perNode && node === undefined) this.problem(path, `${String(value)} runs on every node: say which with \`node:\``);
		if (node !== undefined) this.node(node, path.replace(/\.(stop|start)$/, '.node'), nodes);
	}

	node(value: unknown, path: string, nodes: string[]): void {
		const name = this.string(value, path);
		if (name && nodes.length && !nodes.includes(name)) this.problem(path, `no node "${name}" in this cluster (nodes: ${nodes.join(', ')})`);
	}
}

const STEP_KEYS = ['run', 'apply', 'writeFile', 'advance', 'settle', 'stop', 'start', 'partition', 'heal', 'powerOff', 'powerOn', 'setClock', 'node', 'offset'];
/** Keys that qualify a step's verb rather than name one. */
const STEP_QUALIFIERS = ['node', 'offset'];
/** The step verbs a fault may use. */
const FAULT_VERBS = ['stop', 'start', 'partition', 'heal', 'powerOff', 'powerOn', 'setClock'];

function checkStep(c: Checker, raw: unknown, path: string, nodes: string[], extra: string[] = []): void {
	const step = c.object(raw, path, [...STEP_KEYS, ...extra]);
	if (!step) return;
	const verbs = STEP_KEYS.filter((k) => !STEP_QUALIFIERS.includes(k) && step[k] !== undefined);
	if (verbs.length !== 1) {
		c.problem(path, `needs exactly one of ${STEP_KEYS.filter((k) => !STEP_QUALIFIERS.includes(k)).join(', ')} (found ${verbs.length ? verbs.join(', ') : 'none'})`);
		return;
	}
	const verb = verbs[0];
	switch (verb) {
		case 'run':
		case 'apply':
			c.string(step[verb], `${path}.${verb}`);
			break;
		case 'writeFile': {
			const file = c.object(step.writeFile, `${path}.writeFile`, ['path', 'content'], ['path', 'content']);
			if (file) {
				c.string(file.path, `${path}.writeFile.path`);
				if (typeof file.content !== 'string') c.problem(`${path}.writeFile.content`, 'must be a string');
			}
			break;
		}
		case 'advance':
		case 'settle':
			c.duration(step[verb], `${path}.${verb}`);
			break;
		case 'stop':
		case 'start':
			c.component(step[verb], `${path}.${verb}`, step.node, nodes);
			break;
		case 'partition':
		case 'heal':
		case 'powerOff':
		case 'powerOn':
			c.node(step[verb], `${path}.${verb}`, nodes);
			break;
		case 'setClock':
			c.node(step.setClock, `${path}.setClock`, nodes);
			if (typeof step.offset !== 'string' || tryParseGoDurationMs(step.offset) === undefined) c.problem(`${path}.offset`, 'must be a duration such as "-24h" (behind) or "2h" (ahead)');
			break;
	}
	if (step.node !== undefined && verb !== 'stop' && verb !== 'start') c.problem(`${path}.node`, 'only applies to stop and start');
	if (step.offset !== undefined && verb !== 'setClock') c.problem(`${path}.offset`, 'only applies to setClock');
}

function checkStateCheck(c: Checker, raw: unknown, path: string): void {
	const check = c.object(raw, path, ['resource', 'namespace', 'name', 'selector', 'path', 'equals', 'atLeast', 'count', 'notEquals', 'contains', 'absent'], ['resource']) as StateCheck | undefined;
	if (!check) return;
	c.string(check.resource, `${path}.resource`);
	if (check.path !== undefined && !/^\{.*\}$/s.test(check.path)) c.problem(`${path}.path`, 'must be a JSONPath template in braces, e.g. {.status.phase}');
	const expectations = ['equals', 'atLeast', 'count', 'notEquals', 'contains', 'absent'].filter((k) => (check as unknown as Obj)[k] !== undefined);
	if (expectations.length === 0) c.problem(path, 'needs an expectation: equals, notEquals, contains, atLeast, count or absent');
	if (check.path && (check.count !== undefined) && check.equals === undefined) c.problem(path, '`count` counts objects; use `equals` to check the value at `path`');
}

/** Validates parsed YAML as a scenario; throws ScenarioError listing every problem. */
export function validateScenario(raw: unknown, id: string): Scenario {
	const c = new Checker();
	const top = c.object(raw, id, ['title', 'summary', 'cluster', 'setup', 'faults', 'expect', 'readerArrives', 'tasks', 'panels', 'suggestedCommand'], ['title', 'summary']);
	if (!top) throw new ScenarioError(id, c.problems);
	if (top.title !== undefined) c.localized(top.title, 'title');
	if (top.summary !== undefined) c.localized(top.summary, 'summary');
	const nodes: string[] = [];
	let controlPlaneNodes = 0;
	let replicas = 1;
	if (top.cluster !== undefined) {
		const cluster = c.object(top.cluster, 'cluster', ['seed', 'nodes', 'scheduler', 'kubeProxyMode', 'controlPlane', 'cloud', 'cni', 'kubeadm']);
		if (cluster?.kubeadm !== undefined) {
			const kubeadm = c.object(cluster.kubeadm, 'cluster.kubeadm', ['certificateValidityPeriod', 'caCertificateValidityPeriod']);
			for (const field of ['certificateValidityPeriod', 'caCertificateValidityPeriod']) if (kubeadm?.[field] !== undefined) c.duration(kubeadm[field], `cluster.kubeadm.${field}`);
		}
		if (cluster?.cloud !== undefined && typeof cluster.cloud !== 'boolean') {
			const cloud = c.object(cluster.cloud, 'cluster.cloud', ['configureCloudRoutes']);
			if (cloud?.configureCloudRoutes !== undefined && typeof cloud.configureCloudRoutes !== 'boolean') c.problem('cluster.cloud.configureCloudRoutes', 'must be true or false');
		}
		if (cluster?.controlPlane !== undefined) {
			const controlPlane = c.object(cluster.controlPlane, 'cluster.controlPlane', ['registerNode', 'schedulers', 'controllerManagers', 'etcdMembers']);
			if (controlPlane?.registerNode !== undefined && typeof controlPlane.registerNode !== 'boolean') c.problem('cluster.controlPlane.registerNode', 'must be true or false');
			for (const field of ['schedulers', 'controllerManagers'] as const) {
				const value = controlPlane?.[field];
				if (value === undefined) continue;
				if (!Number.isInteger(value) || (value as number) < 1 || (value as number) > MAX_CONTROL_PLANE_REPLICAS) c.problem(`cluster.controlPlane.${field}`, `must be a whole number from 1 to ${MAX_CONTROL_PLANE_REPLICAS}`);
				else replicas = Math.max(replicas, value as number);
			}
			const members = controlPlane?.etcdMembers;
			if (members !== undefined) {
				if (!Number.isInteger(members) || (members as number) < 1 || (members as number) > MAX_ETCD_MEMBERS) c.problem('cluster.controlPlane.etcdMembers', `must be a whole number from 1 to ${MAX_ETCD_MEMBERS}`);
				else replicas = Math.max(replicas, members as number);
			}
		}
		if (cluster?.seed !== undefined && !(Number.isInteger(cluster.seed) && (cluster.seed as number) >= 0)) c.problem('cluster.seed', 'must be a non-negative integer');
		if (cluster?.kubeProxyMode !== undefined && !['iptables', 'ipvs', 'nftables'].includes(cluster.kubeProxyMode as string)) c.problem('cluster.kubeProxyMode', 'must be iptables, ipvs or nftables');
		if (cluster?.cni !== undefined && !['flannel', 'calico', 'none'].includes(cluster.cni as string)) c.problem('cluster.cni', 'must be flannel, calico or none');
		if (cluster?.nodes !== undefined) {
			c.array(cluster.nodes, 'cluster.nodes').forEach((n, i) => {
				const node = c.object(n, `cluster.nodes[${i}]`, ['name', 'cpu', 'memory', 'pods', 'labels', 'taints', 'images', 'zone', 'role'], ['name', 'cpu', 'memory']);
				if (node && typeof node.name === 'string') nodes.push(node.name);
				if (node?.role === 'control-plane') controlPlaneNodes++;
			});
		}
	}
	if (nodes.length === 0) {
		nodes.push('control-plane', 'node-1', 'node-2');
		controlPlaneNodes = 1;
	}
	// Replicas of the scheduler and the controller manager, and etcd members, bring their own machines (cluster/options.ts resolveNodes).
	for (let n = 2; Math.max(controlPlaneNodes, 1) < replicas; n++) {
		if (nodes.includes(`control-plane-${n}`)) continue;
		nodes.push(`control-plane-${n}`);
		controlPlaneNodes = Math.max(controlPlaneNodes, 1) + 1;
	}
	if (top.setup !== undefined) c.array(top.setup, 'setup').forEach((s, i) => checkStep(c, s, `setup[${i}]`, nodes));
	if (top.faults !== undefined)
		c.array(top.faults, 'faults').forEach((f, i) => {
			const fault = c.object(f, `faults[${i}]`, [...STEP_KEYS, 'at'], ['at']);
			if (!fault) return;
			c.duration(fault.at, `faults[${i}].at`);
			const { at: _at, ...step } = fault;
			void _at;
			if (['run', 'apply', 'writeFile', 'advance', 'settle'].some((k) => step[k] !== undefined)) c.problem(`faults[${i}]`, `a fault is ${FAULT_VERBS.slice(0, -1).join(', ')} or ${FAULT_VERBS[FAULT_VERBS.length - 1]}`);
			checkStep(c, step, `faults[${i}]`, nodes);
		});
	if (top.expect !== undefined) {
		const expect = c.object(top.expect, 'expect', ['within', 'checks'], ['within', 'checks']);
		if (expect) {
			c.duration(expect.within, 'expect.within');
			c.array(expect.checks, 'expect.checks').forEach((ch, i) => checkStateCheck(c, ch, `expect.checks[${i}]`));
		}
	}
	if (top.readerArrives !== undefined && !['expected', 'after-setup'].includes(top.readerArrives as string)) c.problem('readerArrives', 'must be expected or after-setup');
	if (top.readerArrives === 'expected' && top.expect === undefined) c.problem('readerArrives', '`expected` needs an `expect` state to wait for');
	if (top.tasks !== undefined) {
		const ids = new Set<string>();
		c.array(top.tasks, 'tasks').forEach((t, i) => {
			const task = c.object(t, `tasks[${i}]`, ['id', 'title', 'goal', 'hints', 'reveal', 'checks'], ['id', 'title', 'goal', 'checks']);
			if (!task) return;
			const taskId = c.string(task.id, `tasks[${i}].id`);
			if (taskId && ids.has(taskId)) c.problem(`tasks[${i}].id`, `"${taskId}" is used twice`);
			if (taskId) ids.add(taskId);
			if (task.title !== undefined) c.localized(task.title, `tasks[${i}].title`);
			if (task.goal !== undefined) c.localized(task.goal, `tasks[${i}].goal`);
			if (task.hints !== undefined) c.array(task.hints, `tasks[${i}].hints`).forEach((h, j) => c.localized(h, `tasks[${i}].hints[${j}]`));
			if (task.reveal !== undefined) {
				const reveal = c.object(task.reveal, `tasks[${i}].reveal`, ['text', 'commands', 'steps'], ['text']);
				if (reveal?.text !== undefined) c.localized(reveal.text, `tasks[${i}].reveal.text`);
				if (reveal?.commands !== undefined) c.array(reveal.commands, `tasks[${i}].reveal.commands`).forEach((cmd, j) => c.string(cmd, `tasks[${i}].reveal.commands[${j}]`));
				if (reveal?.steps !== undefined) c.array(reveal.steps, `tasks[${i}].reveal.steps`).forEach((s, j) => checkStep(c, s, `tasks[${i}].reveal.steps[${j}]`, nodes));
			}
			if (task.checks !== undefined) {
				const checks = c.array(task.checks, `tasks[${i}].checks`);
				if (checks.length === 0) c.problem(`tasks[${i}].checks`, 'needs at least one check');
				checks.forEach((ch, j) => checkStateCheck(c, ch, `tasks[${i}].checks[${j}]`));
			}
		});
	}
	if (top.panels !== undefined) c.array(top.panels, 'panels').forEach((p, i) => PANELS.includes(p as PanelName) || c.problem(`panels[${i}]`, `must be one of ${PANELS.join(', ')}`));
	if (top.suggestedCommand !== undefined) c.string(top.suggestedCommand, 'suggestedCommand');
	if (c.problems.length) throw new ScenarioError(id, c.problems);
	return { ...(top as unknown as Scenario), id };
}

/** Parses and validates a scenario file's text. */
export function parseScenario(text: string, id: string): Scenario {
	let raw: unknown;
	try {
		raw = parseYaml(text);
	} catch (error) {
		if (error instanceof YamlError) throw new ScenarioError(id, [`${id}.yaml:${error.line}:${error.column}: ${error.reason}`]);
		throw error;
	}
	return validateScenario(raw, id);
}
