import { describe, it, expect } from 'vitest';
import { createCluster, type Cluster } from '../index.ts';

/**
 * PodDisruptionBudgets end to end on a booted cluster: the disruption
 * controller computes each budget's status, the eviction subresource reads
 * it, and `kubectl drain` waits on it, as kubernetes.io's "Specifying a
 * Disruption Budget for your Application" and "Safely Drain a Node" tasks
 * show.
 */

const ok = (cluster: Cluster, line: string) => {
	const r = cluster.exec(line);
	expect(r.stderr, line).toBe('');
	expect(r.exitCode, line).toBe(0);
	return r.stdout;
};

/** Pod names of a label on one node, in the order kubectl lists them. */
const podsOn = (cluster: Cluster, selector: string, node: string) =>
	ok(cluster, `kubectl get pods -l ${selector} --field-selector spec.nodeName=${node} -o jsonpath={.items[*].metadata.name}`).split(' ').filter(Boolean);

const status = (cluster: Cluster, name: string, ns = 'default') =>
	ok(cluster, `kubectl get pdb ${name} -n ${ns} -o jsonpath={.status.expectedPods}/{.status.desiredHealthy}/{.status.currentHealthy}/{.status.disruptionsAllowed}`);

describe('kubectl drain and a PodDisruptionBudget', () => {
	it('evicts what the budget allows, retries every 5 s, and goes on once the replacement is Ready elsewhere', () => {
		const cluster = createCluster({ seed: 7 });
		ok(cluster, 'kubectl create deployment web --image=nginx:1.27 --replicas=4');
		cluster.advance('40s');
		expect(ok(cluster, 'kubectl create poddisruptionbudget web-pdb --selector=app=web --max-unavailable=1')).toBe('poddisruptionbudget.policy/web-pdb created\n');
		cluster.advance('2s');
		expect(status(cluster, 'web-pdb')).toBe('4/3/4/1');
		const [first, second] = podsOn(cluster, 'app=web', 'node-1');
		expect(second, 'two of the four replicas run on node-1').toBeDefined();

		const drained = cluster.exec('kubectl drain node-1 --ignore-daemonsets --pod-selector=app=web');
		// The first eviction uses up the one allowed disruption; the second waits for its replacement.
		expect(drained.stdout).toBe(
			[
				'node/node-1 cordoned',
				`evicting pod default/${first}`,
				`evicting pod default/${second}`,
				`pod/${first} evicted`,
				`evicting pod default/${second}`,
				`pod/${second} evicted`,
				'node/node-1 drained',
				'',
			].join('\n'),
		);
		expect(drained.stderr).toBe(`error when evicting pods/"${second}" -n "default" (will retry after 5s): Cannot evict pod as it would violate the pod's disruption budget.\n`);
		expect(drained.exitCode).toBe(0);
		expect(podsOn(cluster, 'app=web', 'node-1')).toEqual([]);
		cluster.advance('10s');
		expect(status(cluster, 'web-pdb')).toBe('4/3/4/1');
		// Each claim was dropped once its pod was seen going.
		expect(ok(cluster, 'kubectl get pdb web-pdb -o jsonpath={.status.disruptedPods}')).toBe('');
	});

	it('lets an unhealthy pod go only with unhealthyPodEvictionPolicy AlwaysAllow while the application is disrupted', () => {
		const cluster = createCluster({ seed: 7 });
		cluster.writeFile(
			'sick.yaml',
			[
				'apiVersion: apps/v1',
				'kind: Deployment',
				'metadata: {name: sick}',
				'spec:',
				'  replicas: 2',
				'  selector: {matchLabels: {app: sick}}',
				'  template:',
				'    metadata: {labels: {app: sick}}',
				'    spec:',
				'      nodeSelector: {kubernetes.io/hostname: node-1}',
				'      containers:',
				'      - name: nginx',
				'        image: nginx:1.27',
				'        readinessProbe: {httpGet: {path: /fail, port: 80}, periodSeconds: 5}',
				'---',
				'apiVersion: policy/v1',
				'kind: PodDisruptionBudget',
				'metadata: {name: sick-pdb}',
				'spec:',
				'  minAvailable: 1',
				'  selector: {matchLabels: {app: sick}}',
				'',
			].join('\n'),
		);
		ok(cluster, 'kubectl apply -f sick.yaml');
		cluster.advance('40s');
		// Running but never Ready: the budget counts no healthy pod and allows nothing.
		expect(status(cluster, 'sick-pdb')).toBe('2/1/0/0');
		const refused = cluster.exec('kubectl drain node-1 --ignore-daemonsets --pod-selector=app=sick --timeout=3s');
		expect(refused.exitCode).toBe(1);
		expect(refused.stderr).toContain("(will retry after 5s): Cannot evict pod as it would violate the pod's disruption budget.\n");
		expect(podsOn(cluster, 'app=sick', 'node-1')).toHaveLength(2);

		expect(ok(cluster, `kubectl patch pdb sick-pdb --type=merge -p '{"spec":{"unhealthyPodEvictionPolicy":"AlwaysAllow"}}'`)).toBe('poddisruptionbudget.policy/sick-pdb patched\n');
		cluster.advance('1s');
		const [a, b] = podsOn(cluster, 'app=sick', 'node-1');
		const drained = cluster.exec('kubectl drain node-1 --ignore-daemonsets --pod-selector=app=sick --timeout=60s');
		expect(drained.stdout).toBe(['node/node-1 already cordoned', `evicting pod default/${a}`, `evicting pod default/${b}`, `pod/${a} evicted`, `pod/${b} evicted`, 'node/node-1 drained', ''].join('\n'));
		expect(drained.stderr).toBe('');
		// The unhealthy pods used up no disruption (there was none to use).
		expect(ok(cluster, 'kubectl get pdb sick-pdb -o jsonpath={.status.disruptedPods}')).toBe('');
	});
});

describe('the disruption controller', () => {
	const cluster = createCluster({ seed: 7 });
	ok(cluster, 'kubectl create deployment a --image=nginx:1.27 --replicas=3');
	ok(cluster, 'kubectl create deployment b --image=nginx:1.27 --replicas=3');
	cluster.advance('40s');

	it('rounds percentages up: maxUnavailable 50% of 3 wants 1 healthy, minAvailable 50% of 3 wants 2', () => {
		ok(cluster, 'kubectl create pdb a --selector=app=a --max-unavailable=50%');
		ok(cluster, 'kubectl create pdb b --selector=app=b --min-available=50%');
		cluster.advance('2s');
		expect(status(cluster, 'a')).toBe('3/1/3/2');
		expect(status(cluster, 'b')).toBe('3/2/3/1');
		expect(ok(cluster, 'kubectl get pdb')).toMatch(/^NAME {3}MIN AVAILABLE {3}MAX UNAVAILABLE {3}ALLOWED DISRUPTIONS {3}AGE\na {6}N\/A {13}50% {15}2 {21}2s\nb {6}50% {13}N\/A {15}1 {21}2s\n$/);
	});

	it('follows the owning Deployment’s scale, not the pods that exist', () => {
		ok(cluster, 'kubectl scale deployment a --replicas=4');
		cluster.advance('1s');
		// Four expected, three healthy so far: ceil(50% of 4) = 2 may be down, 2 must be healthy.
		expect(status(cluster, 'a').split('/').slice(0, 2)).toEqual(['4', '2']);
		cluster.advance('20s');
		expect(status(cluster, 'a')).toBe('4/2/4/2');
	});

	it('observes a spec change: generation, observedGeneration and the DisruptionAllowed condition', () => {
		ok(cluster, `kubectl patch pdb b --type=merge -p '{"spec":{"minAvailable":"100%"}}'`);
		cluster.advance('1s');
		expect(ok(cluster, 'kubectl get pdb b -o jsonpath={.metadata.generation}/{.status.observedGeneration}')).toBe('2/2');
		expect(status(cluster, 'b')).toBe('3/3/3/0');
		expect(ok(cluster, `kubectl get pdb b -o jsonpath='{.status.conditions[?(@.type=="DisruptionAllowed")].status}/{.status.conditions[0].reason}/{.status.conditions[0].observedGeneration}'`)).toBe('False/InsufficientPods/2');
	});

	it('fails safe on pods whose owner has no scale, and reports a budget that matches nothing', () => {
		cluster.writeFile(
			'budgets.yaml',
			[
				'apiVersion: policy/v1',
				'kind: PodDisruptionBudget',
				'metadata: {name: proxy, namespace: kube-system}',
				'spec:',
				'  maxUnavailable: 1',
				'  selector: {matchLabels: {k8s-app: kube-proxy}}',
				'---',
				'apiVersion: policy/v1',
				'kind: PodDisruptionBudget',
				'metadata: {name: nothing}',
				'spec:',
				'  minAvailable: 1',
				'  selector: {matchLabels: {app: nothing}}',
				'',
			].join('\n'),
		);
		ok(cluster, 'kubectl apply -f budgets.yaml');
		cluster.advance('2s');
		expect(ok(cluster, 'kubectl get pdb proxy -n kube-system -o jsonpath={.status.conditions[0].status}/{.status.conditions[0].reason}/{.status.conditions[0].message}/{.status.disruptionsAllowed}')).toBe(
			'False/SyncFailed/daemonsets.apps does not implement the scale subresource/0',
		);
		expect(ok(cluster, 'kubectl describe pdb proxy -n kube-system')).toMatch(/ {2}Warning {2}CalculateExpectedPodCountFailed {2}.* {2}controllermanager {2}Failed to calculate the number of expected pods: daemonsets\.apps does not implement the scale subresource\n$/);
		const nothing = ok(cluster, 'kubectl describe pdb nothing');
		expect(nothing).toContain('Min available:  1\nSelector:       app=nothing\nStatus:\n    Allowed disruptions:  0\n    Current:              0\n    Desired:              1\n    Total:                0\n');
		expect(nothing).toMatch(/ {2}Normal {2}NoPods {2}.* {2}controllermanager {2}No matching pods found\n$/);
	});
});

describe("kubernetes.io's zk-pdb", () => {
	const cluster = createCluster({ seed: 7 });
	// The page's ZooKeeper ensemble is a StatefulSet; any three Pods labelled app=zookeeper with an owner show the same budget.
	cluster.writeFile('zk.yaml', 'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: zk}\nspec:\n  replicas: 3\n  selector: {matchLabels: {app: zookeeper}}\n  template:\n    metadata: {labels: {app: zookeeper}}\n    spec: {containers: [{name: zk, image: nginx:1.27}]}\n');
	ok(cluster, 'kubectl apply -f zk.yaml');
	cluster.advance('60s');

	it.each([
		['minAvailable: 2', 'zk-pdb   2               N/A               1                     7s'],
		['maxUnavailable: 1', 'zk-pdb   N/A             1                 1                     7s'],
	])('%s: get poddisruptionbudgets and its status', (field, row) => {
		cluster.writeFile('zk-pdb.yaml', ['apiVersion: policy/v1', 'kind: PodDisruptionBudget', 'metadata:', '  name: zk-pdb', 'spec:', `  ${field}`, '  selector:', '    matchLabels:', '      app: zookeeper', ''].join('\n'));
		ok(cluster, 'kubectl delete pdb zk-pdb --ignore-not-found');
		expect(ok(cluster, 'kubectl apply -f zk-pdb.yaml')).toBe('poddisruptionbudget.policy/zk-pdb created\n');
		cluster.advance('7s');
		expect(ok(cluster, 'kubectl get poddisruptionbudgets')).toBe(`NAME     MIN AVAILABLE   MAX UNAVAILABLE   ALLOWED DISRUPTIONS   AGE\n${row}\n`);
		const yaml = ok(cluster, 'kubectl get poddisruptionbudgets zk-pdb -o yaml');
		expect(yaml.slice(yaml.indexOf('status:'))).toMatch(
			/^status:\n {2}conditions:\n {2}- lastTransitionTime: "[-0-9T:]+Z"\n {4}message: ""\n {4}observedGeneration: 1\n {4}reason: SufficientPods\n {4}status: "True"\n {4}type: DisruptionAllowed\n {2}currentHealthy: 3\n {2}desiredHealthy: 2\n {2}disruptionsAllowed: 1\n {2}expectedPods: 3\n {2}observedGeneration: 1\n$/,
		);
	});
});
