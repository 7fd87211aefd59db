import { describe, expect, it } from 'vitest';
import { ScenarioError, parseScenario } from './validate.ts';

/** A minimal valid scenario, with `extra` appended (YAML text). */
function scenario(extra = ''): string {
	return `title: {en: A title, zh-cn: 标题}\nsummary: {en: A summary, zh-cn: 摘要}\n${extra}`;
}

function problemsOf(text: string): string[] {
	try {
		parseScenario(text, 'demo');
	} catch (error) {
		if (error instanceof ScenarioError) return error.problems;
		throw error;
	}
	return [];
}

describe('parseScenario', () => {
	it('accepts a minimal scenario and gives it its id', () => {
		expect(parseScenario(scenario(), 'start/demo')).toMatchObject({ id: 'start/demo', title: { en: 'A title', 'zh-cn': '标题' } });
	});

	it('accepts a task whose reveal plays steps beyond the terminal', () => {
		const parsed = parseScenario(
			scenario(`tasks:
  - id: fix
    title: {en: Fix it, zh-cn: 修好它}
    goal: {en: Start it, zh-cn: 启动它}
    reveal:
      text: {en: Start it again, zh-cn: 再启动}
      commands: [kubectl get pods -n kube-system]
      steps:
        - start: kube-controller-manager
        - advance: 1m
        - run: kubectl get pods
    checks:
      - {resource: pods, namespace: default, count: 0}
`),
			'demo',
		);
		expect(parsed.tasks?.[0]?.reveal?.steps).toEqual([{ start: 'kube-controller-manager' }, { advance: '1m' }, { run: 'kubectl get pods' }]);
	});

	it.each([
		['a missing translation', scenario().replace('zh-cn: 标题', 'fr: titre'), ['title.fr: unknown field (allowed: en, zh-cn)', 'title.zh-cn: is required']],
		['a typo in a field name', scenario('setpu: []\n'), ['demo.setpu: unknown field (allowed: title, summary, cluster, setup, faults, expect, readerArrives, tasks, panels, suggestedCommand)']],
		['a step with two verbs', scenario('setup:\n  - {run: kubectl get pods, advance: 1s}\n'), ['setup[0]: needs exactly one of run, apply, writeFile, advance, settle, stop, start, partition, heal, powerOff, powerOn, setClock (found run, advance)']],
		['an unknown Pod network', scenario('cluster:\n  cni: weave\n'), ['cluster.cni: must be flannel, calico or none']],
		['a bad duration', scenario('setup:\n  - advance: soon\n'), ['setup[0].advance: time: invalid duration "soon"']],
		['a node component without its node', scenario('setup:\n  - stop: kubelet\n'), ['setup[0].stop: kubelet runs on every node: say which with `node:`']],
		['an unknown node', scenario('setup:\n  - partition: node-9\n'), ['setup[0].partition: no node "node-9" in this cluster (nodes: control-plane, node-1, node-2)']],
		['an unknown component', scenario('faults:\n  - {at: 10s, stop: kube-dns}\n'), ['faults[0].stop: must be one of kube-apiserver, etcd, kube-scheduler, kube-controller-manager, cloud-controller-manager, kubelet, kube-proxy, container-runtime']],
		['a fault that is a command', scenario('faults:\n  - {at: 10s, run: kubectl delete pods --all}\n'), ['faults[0]: a fault is stop, start, partition, heal, powerOff, powerOn or setClock']],
		['a power step on an unknown node', scenario('setup:\n  - powerOff: node-9\n'), ['setup[0].powerOff: no node "node-9" in this cluster (nodes: control-plane, node-1, node-2)']],
		['a power fault that names no node', scenario('faults:\n  - {at: 1m, powerOn: ""}\n'), ['faults[0].powerOn: must be a non-empty string']],
		['a power step with a `node:` field', scenario('setup:\n  - {powerOff: node-1, node: node-2}\n'), ['setup[0].node: only applies to stop and start']],
		['a power fault and a stop in one entry', scenario('faults:\n  - {at: 1m, powerOff: node-1, stop: kubelet, node: node-1}\n'), ['faults[0]: needs exactly one of run, apply, writeFile, advance, settle, stop, start, partition, heal, powerOff, powerOn, setClock (found stop, powerOff)']],
		['a check without an expectation', scenario('expect:\n  within: 1m\n  checks:\n    - {resource: pods}\n'), ['expect.checks[0]: needs an expectation: equals, notEquals, contains, atLeast, count or absent']],
		['a check path that is not a JSONPath template', scenario('expect:\n  within: 1m\n  checks:\n    - {resource: pods, path: .status.phase, equals: Running}\n'), ['expect.checks[0].path: must be a JSONPath template in braces, e.g. {.status.phase}']],
		['a task with no checks', scenario('tasks:\n  - {id: t, title: {en: T, zh-cn: T}, goal: {en: G, zh-cn: G}, checks: []}\n'), ['tasks[0].checks: needs at least one check']],
		['a reveal step on an unknown node', scenario('tasks:\n  - id: t\n    title: {en: T, zh-cn: T}\n    goal: {en: G, zh-cn: G}\n    reveal: {text: {en: R, zh-cn: R}, steps: [{heal: node-7}]}\n    checks: [{resource: pods, count: 0}]\n'), ['tasks[0].reveal.steps[0].heal: no node "node-7" in this cluster (nodes: control-plane, node-1, node-2)']],
		['an unknown arrival', scenario('readerArrives: soon\n'), ['readerArrives: must be expected or after-setup']],
		['an arrival with nothing to wait for', scenario('readerArrives: expected\n'), ['readerArrives: `expected` needs an `expect` state to wait for']],
		['an unknown panel', scenario('panels: [terminal, radar]\n'), ['panels[1]: must be one of map, terminal, timeline, story, faults, why, tasks, yaml, inspector']],
	])('rejects %s, naming the path of the problem', (_what, text, expected) => {
		expect(problemsOf(text)).toEqual(expected);
	});

	it('accepts powering a node off and on, as setup steps, reveal steps and timed faults', () => {
		const parsed = parseScenario(
			scenario(`setup:
  - powerOff: node-2
  - powerOn: node-2
faults:
  - {at: 30s, powerOff: node-1}
  - {at: 2m, powerOn: node-1}
tasks:
  - id: boot
    title: {en: Boot it, zh-cn: 开机}
    goal: {en: Power node-1 on, zh-cn: 给 node-1 开机}
    reveal:
      text: {en: Press Power on, zh-cn: 按开机}
      steps: [{powerOn: node-1}, {advance: 1m}]
    checks: [{resource: nodes, name: node-1, path: '{.status.conditions[?(@.type=="Ready")].status}', equals: 'True'}]
`),
			'demo',
		);
		expect(parsed.setup).toEqual([{ powerOff: 'node-2' }, { powerOn: 'node-2' }]);
		expect(parsed.faults).toEqual([
			{ at: '30s', powerOff: 'node-1' },
			{ at: '2m', powerOn: 'node-1' },
		]);
		expect(parsed.tasks?.[0]?.reveal?.steps).toEqual([{ powerOn: 'node-1' }, { advance: '1m' }]);
	});

	it('reports every problem of a file at once, not only the first', () => {
		expect(problemsOf(scenario('setup:\n  - advance: soon\n  - stop: kubelet\npanels: [radar]\n'))).toHaveLength(3);
	});

	it('points at the line and column of a YAML syntax error', () => {
		const problems = problemsOf('title: {en: A\nsummary: [unclosed\n');
		expect(problems).toHaveLength(1);
		expect(problems[0]).toMatch(/^demo\.yaml:\d+:\d+: /);
	});

	it('uses the nodes the scenario declares when it checks node names', () => {
		const text = scenario('cluster:\n  nodes:\n    - {name: cp, cpu: "2", memory: 4Gi}\n    - {name: worker, cpu: "2", memory: 4Gi}\nsetup:\n  - partition: node-1\n');
		expect(problemsOf(text)).toEqual(['setup[0].partition: no node "node-1" in this cluster (nodes: cp, worker)']);
	});

	it('accepts a managed-style control plane that is not a Node, and refuses a value that is not a boolean', () => {
		expect(parseScenario(scenario('cluster:\n  controlPlane: {registerNode: false}\n'), 'demo').cluster).toEqual({ controlPlane: { registerNode: false } });
		expect(problemsOf(scenario('cluster:\n  controlPlane: {registerNode: nope}\n'))).toEqual(['cluster.controlPlane.registerNode: must be true or false']);
	});
});
