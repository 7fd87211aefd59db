import { describe, it, expect } from 'vitest';
import { createCluster, type Cluster } from '../../index.ts';

/**
 * kubernetes.io's StatefulSet Basics tutorial on a booted cluster, through
 * the public API only: what a reader types, what they see.
 */

const WEB_URL = 'https://k8s.io/examples/application/web/web.yaml';
const setImage = (image: string) => `kubectl patch statefulset web --type='json' -p='[{"op": "replace", "path": "/spec/template/spec/containers/0/image", "value":"${image}"}]'`;
const images = (c: Cluster) => c.exec(`for p in 0 1; do kubectl get pod "web-$p" --template '{{range $i, $c := .spec.containers}}{{$c.image}}{{end}}'; echo; done`).stdout;
/** The rows of a `get -w` stream as [name, status]. */
const rows = (out: string) =>
	out
		.split('\n')
		.slice(1)
		.filter(Boolean)
		.map((l) => l.split(/\s+/))
		.map((cells) => `${cells[0]} ${cells[2]}`);

/**
 * The tutorial needs "a dynamic PersistentVolume provisioner with a default
 * StorageClass, or statically provision[ed] PersistentVolumes": a bare
 * kubeadm cluster has neither, so its claims would stay Pending. Four
 * hostPath volumes without a class, one per ordinal the tutorial reaches.
 */
const staticVolumes = [0, 1, 2, 3]
	.map((i) => `---\napiVersion: v1\nkind: PersistentVolume\nmetadata:\n  name: pv-${i}\nspec:\n  capacity:\n    storage: 1Gi\n  accessModes: [ReadWriteOnce]\n  hostPath:\n    path: /tmp/pv-${i}\n`)
	.join('');

describe('StatefulSet Basics, as copied from kubernetes.io', () => {
	const c = createCluster({ seed: 5 });
	const provisioned = c.exec(`kubectl apply -f - <<EOF\n${staticVolumes}EOF`);
	const applied = c.exec(`kubectl apply -f ${WEB_URL}`);
	const watched = c.exec('kubectl get pods -w -l app=nginx --request-timeout=60s');

	it('creates the headless Service and the StatefulSet, then web-0 and only once it runs, web-1', () => {
		expect(provisioned).toMatchObject({ stdout: 'persistentvolume/pv-0 created\npersistentvolume/pv-1 created\npersistentvolume/pv-2 created\npersistentvolume/pv-3 created\n', exitCode: 0 });
		expect(applied).toMatchObject({ stdout: 'service/nginx created\nstatefulset.apps/web created\n', exitCode: 0 });
		const seen = rows(watched.stdout);
		expect(seen[0]).toBe('web-0 Pending');
		const web0Running = seen.indexOf('web-0 Running');
		const web1First = seen.findIndex((r) => r.startsWith('web-1'));
		expect(web0Running).toBeGreaterThan(0);
		expect(web1First).toBeGreaterThan(web0Running);
		expect(seen.at(-1)).toBe('web-1 Running');
		expect(c.exec('kubectl get statefulset web').stdout).toMatch(/^NAME\s+READY\s+AGE\nweb\s+2\/2\s+\d+s\n$/);
		// Each Pod's claim, created before it from the template, labelled with the selector, bound to one of the volumes.
		expect(c.exec("kubectl get pvc -l app=nginx -o jsonpath='{range .items[*]}{.metadata.name}={.status.phase}/{.spec.volumeName} {end}'").stdout).toBe('www-web-0=Bound/pv-0 www-web-1=Bound/pv-1 ');
		expect(c.exec('kubectl events --for sts/web').stdout).toMatch(/SuccessfulCreate\s+StatefulSet\/web\s+create Claim www-web-0 Pod web-0 in StatefulSet web success\n/);
	});

	it('gives each Pod its ordinal name as hostname, and a DNS name under the headless Service', () => {
		expect(c.exec(`for i in 0 1; do kubectl exec "web-$i" -- sh -c 'hostname'; done`)).toMatchObject({ stdout: 'web-0\nweb-1\n', exitCode: 0 });
		const ip = c.exec('kubectl get pod web-0 -o jsonpath={.status.podIP}').stdout;
		const lookup = c.exec('kubectl run -i --image busybox:1.28 dns-test --restart=Never --rm -- nslookup web-0.nginx');
		expect(lookup.stdout).toContain('Name:      web-0.nginx\n');
		expect(lookup.stdout).toContain(`Address 1: ${ip} web-0.nginx.default.svc.cluster.local\n`);
		expect(c.exec('kubectl get pod web-1 -o jsonpath={.spec.hostname}/{.spec.subdomain}/{.spec.volumes[0].persistentVolumeClaim.claimName}').stdout).toBe('web-1/nginx/www-web-1');
	});

	it('records the template as a ControllerRevision and says so in describe', () => {
		const revision = c.exec('kubectl get sts web -o jsonpath={.status.currentRevision}').stdout;
		expect(revision).toMatch(/^web-[bcdfghjklmnpqrstvwxz2456789]+$/);
		expect(c.exec('kubectl get controllerrevisions').stdout).toMatch(new RegExp(`^NAME\\s+CONTROLLER\\s+REVISION\\s+AGE\\n${revision}\\s+statefulset\\.apps/web\\s+1\\s+\\d+s\\n$`));
		expect(c.exec('kubectl get pods -l app=nginx -o jsonpath={.items[*].metadata.labels.controller-revision-hash}').stdout).toBe(`${revision} ${revision}`);
		const described = c.exec('kubectl describe sts web').stdout;
		expect(described).toContain('Replicas:           2 desired | 2 total\n');
		expect(described).toContain('Update Strategy:    RollingUpdate\n  Partition:        0\n  MaxUnavailable:   1\n');
		expect(described).toMatch(/Normal {2}SuccessfulCreate {2}\d+s {3}statefulset-controller {2}create Pod web-0 in StatefulSet web successful\n/);
	});

	it('scales up in order and down from the highest ordinal', () => {
		expect(c.exec('kubectl scale sts web --replicas=4').stdout).toBe('statefulset.apps/web scaled\n');
		expect(c.exec('kubectl rollout status sts/web').stdout.split('\n').at(-2)).toBe('partitioned roll out complete: 4 new pods have been updated...');
		expect(c.exec(`kubectl patch sts web -p '{"spec":{"replicas":2}}'`).stdout).toBe('statefulset.apps/web patched\n');
		c.settle({ maxMs: 60_000 });
		expect(c.exec('kubectl get pods -l app=nginx -o name').stdout).toBe('pod/web-0\npod/web-1\n');
		const events = c.exec('kubectl events --for sts/web').stdout;
		expect(events.indexOf('delete Pod web-3 in StatefulSet web successful')).toBeGreaterThan(-1);
		expect(events.indexOf('delete Pod web-2 in StatefulSet web successful')).toBeGreaterThan(events.indexOf('delete Pod web-3 in StatefulSet web successful'));
	});

	it('rolls an image change out, shows it in rollout status and history, and undoes it', () => {
		expect(c.exec(setImage('registry.k8s.io/nginx-slim:0.24')).stdout).toBe('statefulset.apps/web patched\n');
		const status = c.exec('kubectl rollout status sts/web').stdout.split('\n');
		expect(status[0]).toBe('Waiting for statefulset spec update to be observed...');
		expect(status).toContain('Waiting for 1 pods to be ready...');
		expect(status.at(-2)).toBe('partitioned roll out complete: 2 new pods have been updated...');
		expect(images(c)).toBe('registry.k8s.io/nginx-slim:0.24\nregistry.k8s.io/nginx-slim:0.24\n');
		expect(c.exec('kubectl rollout history sts/web').stdout).toBe('statefulset.apps/web \nREVISION  CHANGE-CAUSE\n1         <none>\n2         <none>\n\n');
		expect(c.exec('kubectl rollout history sts/web --revision=1').stdout).toContain('    Image:\tregistry.k8s.io/nginx-slim:0.21\n');
		expect(c.exec('kubectl rollout undo sts/web').stdout).toBe('statefulset.apps/web rolled back\n');
		c.exec('kubectl rollout status sts/web');
		expect(images(c)).toBe('registry.k8s.io/nginx-slim:0.21\nregistry.k8s.io/nginx-slim:0.21\n');
		// Revision 1's template came back: it is renumbered 3, not recorded again.
		expect(c.exec('kubectl rollout history sts/web').stdout).toBe('statefulset.apps/web \nREVISION  CHANGE-CAUSE\n2         <none>\n3         <none>\n\n');
		expect(c.exec('kubectl rollout undo sts/web --to-revision=3').stdout).toBe('statefulset.apps/web skipped rollback (current template already matches revision 3)\n');
		const missing = c.exec('kubectl rollout undo sts/web --to-revision=9');
		// The set was applied, so kubectl warns about last-applied-configuration first.
		expect(missing.stderr).toMatch(/^Warning: resource statefulsets\/web was previously managed with 'kubectl apply'\..*\nerror: unable to find specified revision 9 in history\n$/);
		expect(missing.exitCode).toBe(1);
	});

	it('a partition stages the update: only ordinals at or above it change', () => {
		c.exec(`kubectl patch statefulset web -p '{"spec":{"updateStrategy":{"type":"RollingUpdate","rollingUpdate":{"partition":1}}}}'`);
		c.exec(setImage('registry.k8s.io/nginx-slim:0.24'));
		expect(c.exec('kubectl rollout status sts/web').stdout.split('\n').at(-2)).toBe('partitioned roll out complete: 1 new pods have been updated...');
		expect(images(c)).toBe('registry.k8s.io/nginx-slim:0.21\nregistry.k8s.io/nginx-slim:0.24\n');
		// web-0 is below the partition: deleted, it comes back at the old revision.
		c.exec('kubectl delete pod web-0');
		c.settle({ maxMs: 60_000 });
		expect(images(c)).toBe('registry.k8s.io/nginx-slim:0.21\nregistry.k8s.io/nginx-slim:0.24\n');
	});
});

describe('StatefulSet rollout status without rollingUpdate, and Parallel management', () => {
	it('reports the revision when updateStrategy names RollingUpdate with no rollingUpdate block, and Parallel starts every Pod at once', () => {
		const c = createCluster({ seed: 9 });
		c.writeFile(
			'db.yaml',
			[
				'apiVersion: apps/v1',
				'kind: StatefulSet',
				'metadata: {name: db}',
				'spec:',
				'  serviceName: db',
				'  replicas: 3',
				'  podManagementPolicy: Parallel',
				'  updateStrategy: {type: RollingUpdate}',
				'  selector: {matchLabels: {app: db}}',
				'  template:',
				'    metadata: {labels: {app: db}}',
				'    spec: {containers: [{name: db, image: nginx:1.27}]}',
				'',
			].join('\n'),
		);
		c.exec('kubectl apply -f db.yaml');
		const watched = c.exec('kubectl get pods -w -l app=db --request-timeout=30s').stdout;
		const seen = rows(watched);
		// All three are created before any runs.
		expect(seen.slice(0, 3).sort()).toEqual(['db-0 Pending', 'db-1 Pending', 'db-2 Pending']);
		const revision = c.exec('kubectl get sts db -o jsonpath={.status.updateRevision}').stdout;
		expect(c.exec('kubectl rollout status sts/db').stdout).toBe(`statefulset rolling update complete 3 pods at revision ${revision}...\n`);
	});

	it('is deterministic: the same seed and inputs give the same trace', () => {
		const run = () => {
			const c = createCluster({ seed: 13 });
			c.exec(`kubectl apply -f ${WEB_URL}`);
			c.advance('30s');
			c.exec(setImage('registry.k8s.io/nginx-slim:0.24'));
			c.advance('30s');
			return c.fingerprint();
		};
		expect(run()).toBe(run());
	});
});
