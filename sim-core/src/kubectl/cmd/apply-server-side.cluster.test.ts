/**
 * Server-side apply and managedFields through the public API, as a reader
 * meets them: who owns which field after kubectl create, apply, scale and
 * set; the conflict kubectl prints and --force-conflicts; fields removed
 * from a manifest removed from the object unless someone else owns them;
 * co-ownership; the move from client-side to server-side apply; and the
 * API server's own rules (a manager is required, at most ten Update
 * managers).
 */
import { describe, expect, it } from 'vitest';
import { createCluster, type Cluster } from '../../index.ts';

const DEPLOYMENT = `cat > web.yaml <<'EOF'
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  labels:
    app: web
    tier: front
spec:
  replicas: 2
  selector:
    matchLabels:
      app: web
  template:
    metadata:
      labels:
        app: web
    spec:
      containers:
      - name: nginx
        image: nginx:1.27
        ports:
        - containerPort: 80
EOF`;

/** `manager operation subresource` per managedFields entry, in the order the server keeps them. */
function managers(c: Cluster, ref = 'deploy/web'): string[] {
	const out = c.exec(`kubectl get ${ref} -o jsonpath='{range .metadata.managedFields[*]}{.manager} {.operation} {.subresource}{"\\n"}{end}'`).stdout;
	return out.split('\n').filter(Boolean).map((line) => line.trim());
}

/** A cluster where web.yaml has been server-side applied. */
function applied(): Cluster {
	const c = createCluster({ seed: 3 });
	c.exec(DEPLOYMENT);
	c.exec('kubectl apply --server-side -f web.yaml');
	return c;
}

function fieldsOf(c: Cluster, manager: string, ref = 'deploy/web'): Record<string, unknown> {
	const obj = JSON.parse(c.exec(`kubectl get ${ref} -o json --show-managed-fields`).stdout) as { metadata: { managedFields: Array<{ manager: string; fieldsV1: Record<string, unknown> }> } };
	const entry = obj.metadata.managedFields.find((e) => e.manager === manager);
	if (!entry) throw new Error(`no entry for ${manager}`);
	return entry.fieldsV1;
}

describe('managedFields', () => {
	it('records kubectl create as upstream does: new maps and list items marked with ".", value structs and defaults included', () => {
		const c = createCluster({ seed: 3 });
		c.exec('kubectl create deployment web --image=nginx:1.27');
		const fields = fieldsOf(c, 'kubectl-create') as Record<string, Record<string, unknown>>;
		expect(fields['f:metadata']).toEqual({ 'f:labels': { '.': {}, 'f:app': {} } });
		const spec = fields['f:spec'] as Record<string, Record<string, unknown>>;
		expect(spec['f:strategy']).toEqual({ 'f:rollingUpdate': { '.': {}, 'f:maxSurge': {}, 'f:maxUnavailable': {} }, 'f:type': {} });
		expect(spec['f:selector']).toEqual({});
		const podSpec = (spec['f:template'] as Record<string, Record<string, Record<string, unknown>>>)['f:spec'];
		expect(Object.keys(podSpec['f:containers'])).toEqual(['k:{"name":"nginx"}']);
		expect(podSpec['f:containers']['k:{"name":"nginx"}']).toMatchObject({ '.': {}, 'f:image': {}, 'f:imagePullPolicy': {}, 'f:terminationMessagePath': {} });
		expect(podSpec['f:dnsPolicy']).toEqual({});
		c.advance('15s');
		expect(managers(c)).toEqual(['kubectl-create Update', 'kube-controller-manager Update status']);
		// The kubelet reports a Pod's status; the ReplicaSet controller created it.
		const pod = c.exec("kubectl get pods -o jsonpath='{.items[0].metadata.name}'").stdout;
		expect(managers(c, `pod/${pod}`)).toEqual(['kube-controller-manager Update', 'kubelet Update status']);
		// kubectl hides them unless asked.
		expect(c.exec('kubectl get deploy web -o yaml').stdout).not.toContain('managedFields');
	});

	it('moves a changed field to whoever updates it last', () => {
		const c = createCluster({ seed: 3 });
		c.exec('kubectl create deployment web --image=nginx:1.27');
		c.exec('kubectl set image deploy/web nginx=nginx:1.28');
		const created = fieldsOf(c, 'kubectl-create') as Record<string, Record<string, Record<string, Record<string, Record<string, Record<string, unknown>>>>>>;
		expect(created['f:spec']['f:template']['f:spec']['f:containers']['k:{"name":"nginx"}']).not.toHaveProperty('f:image');
		expect(JSON.stringify(fieldsOf(c, 'kubectl-set'))).toBe('{"f:spec":{"f:template":{"f:spec":{"f:containers":{"k:{\\"name\\":\\"nginx\\"}":{"f:image":{}}}}}}}');
	});

	it('keeps at most ten Update managers, folding the oldest into ancient-changes', () => {
		const c = createCluster({ seed: 3 });
		c.exec('kubectl create configmap settings --from-literal=a=b');
		for (let i = 0; i < 11; i++) {
			c.exec(`kubectl label cm settings l${i}=x --field-manager=team-${i}`);
			c.advance('1s');
		}
		const names = managers(c, 'cm/settings');
		expect(names).toHaveLength(10);
		expect(names).toContain('ancient-changes Update');
		expect(names).not.toContain('kubectl-create Update');
		expect(names).toContain('team-10 Update');
	});
});

describe('kubectl apply --server-side', () => {
	it('creates the object owning exactly its manifest, and answers serverside-applied', () => {
		const c = createCluster({ seed: 3 });
		c.exec(DEPLOYMENT);
		expect(c.exec('kubectl apply --server-side -f web.yaml')).toMatchObject({ stdout: 'deployment.apps/web serverside-applied\n', exitCode: 0 });
		expect(managers(c)).toEqual(['kubectl Apply']);
		const spec = fieldsOf(c, 'kubectl')['f:spec'] as Record<string, unknown>;
		// Defaults (progressDeadlineSeconds, strategy...) are nobody's: only what the manifest says.
		expect(Object.keys(spec)).toEqual(['f:replicas', 'f:selector', 'f:template']);
		expect(JSON.stringify(spec['f:template'])).toContain('"k:{\\"containerPort\\":80,\\"protocol\\":\\"TCP\\"}":{".":{},"f:containerPort":{}}');
		expect(c.exec('kubectl apply --server-side -f web.yaml').stdout).toBe('deployment.apps/web serverside-applied\n');
		expect(c.exec('kubectl apply --server-side -f web.yaml --dry-run=server').stdout).toBe('deployment.apps/web serverside-applied (server dry run)\n');
	});

	it('reports a conflict with kubectl scale in kubectl\'s words, and --force-conflicts takes the field', () => {
		const c = applied();
		c.exec('kubectl scale deploy web --replicas=5');
		const refused = c.exec('kubectl apply --server-side -f web.yaml');
		expect(refused.exitCode).toBe(1);
		expect(refused.stderr.split('\n').slice(0, 3)).toEqual([
			'error: Apply failed with 1 conflict: conflict with "kubectl" with subresource "scale" using apps/v1: .spec.replicas',
			'Please review the fields above--they currently have other managers. Here',
			'are the ways you can resolve this warning:',
		]);
		expect(refused.stderr.trimEnd().endsWith('See https://kubernetes.io/docs/reference/using-api/server-side-apply/#conflicts')).toBe(true);
		expect(c.exec('kubectl get deploy web -o jsonpath={.spec.replicas}').stdout).toBe('5');
		expect(c.exec('kubectl apply --server-side -f web.yaml --force-conflicts').stdout).toBe('deployment.apps/web serverside-applied\n');
		expect(c.exec('kubectl get deploy web -o jsonpath={.spec.replicas}').stdout).toBe('2');
		expect(managers(c)).toEqual(['kubectl Apply']);
	});

	it('lists several conflicts by manager', () => {
		const c = applied();
		c.exec('kubectl set image deploy/web nginx=nginx:1.28');
		c.exec('kubectl label deploy web tier=back --overwrite');
		const refused = c.exec('kubectl apply --server-side -f web.yaml').stderr;
		expect(refused.split('\n').slice(0, 5).join('\n')).toBe(
			[
				'error: Apply failed with 2 conflicts: conflicts with "kubectl-label" using apps/v1:',
				'- .metadata.labels.tier',
				'conflicts with "kubectl-set" using apps/v1:',
				'- .spec.template.spec.containers[name="nginx"].image',
				'Please review the fields above--they currently have other managers. Here',
			].join('\n'),
		);
	});

	it('removes what the manifest no longer sets, unless another manager owns it', () => {
		const c = applied();
		c.exec("kubectl annotate deploy web team=payments");
		c.exec("sed -i '/tier: front/d' web.yaml");
		c.exec('kubectl apply --server-side -f web.yaml');
		expect(c.exec("kubectl get deploy web -o jsonpath='{.metadata.labels}'").stdout).toBe('{"app":"web"}');
		expect(c.exec("kubectl get deploy web -o jsonpath='{.metadata.annotations.team}'").stdout).toBe('payments');
		// A label two managers applied stays while one of them still applies it.
		c.exec(`cat > label.yaml <<'EOF'
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  labels:
    app: web
EOF`);
		expect(c.exec('kubectl apply --server-side --field-manager=labeller -f label.yaml').exitCode).toBe(0);
		c.exec("sed -i '/^  labels:/,/^    app: web/d' web.yaml");
		c.exec('kubectl apply --server-side -f web.yaml');
		expect(c.exec("kubectl get deploy web -o jsonpath='{.metadata.labels}'").stdout).toBe('{"app":"web"}');
	});

	it('takes over from client-side apply: the old manager\'s fields become kubectl\'s, and a changed value does not conflict', () => {
		const c = createCluster({ seed: 3 });
		c.exec(DEPLOYMENT);
		c.exec('kubectl apply -f web.yaml');
		c.exec("sed -i 's/replicas: 2/replicas: 4/' web.yaml");
		expect(c.exec('kubectl apply --server-side -f web.yaml')).toMatchObject({ stdout: 'deployment.apps/web serverside-applied\n', exitCode: 0 });
		expect(managers(c)).toEqual(['kubectl Apply']);
		// The annotation follows the new configuration, so client-side apply still works afterwards.
		expect(c.exec('kubectl apply view-last-applied deploy/web').stdout).toContain('replicas: 4');
		c.exec("sed -i '/tier: front/d' web.yaml");
		c.exec('kubectl apply --server-side -f web.yaml');
		expect(c.exec("kubectl get deploy web -o jsonpath='{.metadata.labels}'").stdout).toBe('{"app":"web"}');
	});

	it('refuses an apply patch without a field manager, and force on any other patch, as the API server validates PatchOptions', () => {
		const c = createCluster({ seed: 3 });
		c.exec('kubectl get ns');
		const client = c.client('kubectl');
		const ref = { group: '', version: 'v1', resource: 'configmaps' };
		const config = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' }, data: { a: 'b' } };
		const noManager = client.patch(ref, 'default', 'x', config, 'application/apply-patch+yaml');
		expect(noManager).toMatchObject({ ok: false, code: 422 });
		expect(JSON.stringify(noManager)).toContain('PatchOptions.meta.k8s.io \\"\\" is invalid: fieldManager: Required value: is required for apply patch');
		const created = client.patch(ref, 'default', 'x', config, 'application/apply-patch+yaml', undefined, { fieldManager: 'me' });
		expect(created).toMatchObject({ ok: true, code: 201 });
		const forced = client.patch(ref, 'default', 'x', { data: { a: 'c' } }, 'application/merge-patch+json', undefined, { force: true });
		expect(JSON.stringify(forced)).toContain('force: Forbidden: may not be specified for non-apply patch');
	});
});
