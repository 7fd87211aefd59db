/**
 * `kubectl auth reconcile -f` through the public API: missing RBAC objects
 * created (their namespace too), existing ones given the rules and
 * subjects they lack (broken down as Covers breaks them), the extras
 * removed only when asked, each change reported on stderr in Go's %+v, and
 * the grants working for the user named.
 */
import { describe, expect, it } from 'vitest';
import { createCluster } from '../../index.ts';

const RBAC = `cat > rbac.yaml <<'EOF'
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata:
  name: pod-reader
  namespace: team-a
rules:
- apiGroups: [""]
  resources: ["pods"]
  verbs: ["get", "list"]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata:
  name: read-pods
  namespace: team-a
subjects:
- kind: User
  name: jane
roleRef:
  kind: Role
  name: pod-reader
  apiGroup: rbac.authorization.k8s.io
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: skipped
  namespace: team-a
EOF`;

describe('kubectl auth reconcile', () => {
	it('creates what is missing, with its namespace, and then has nothing to do', () => {
		const c = createCluster({ seed: 8 });
		c.exec(RBAC);
		const first = c.exec('kubectl auth reconcile -f rbac.yaml');
		expect(first.stdout).toBe('role.rbac.authorization.k8s.io/pod-reader reconciled\nrolebinding.rbac.authorization.k8s.io/read-pods reconciled\n');
		expect(first.stderr).toBe(
			'\treconciliation required create\n\tmissing rules added:\n\t\t{Verbs:[get list] APIGroups:[] Resources:[pods] ResourceNames:[] NonResourceURLs:[]}\n' +
				'\treconciliation required create\n\tmissing subjects added:\n\t\t{Kind:User APIGroup:rbac.authorization.k8s.io Name:jane Namespace:}\n',
		);
		expect(c.exec('kubectl get ns team-a -o name').stdout).toBe('namespace/team-a\n');
		expect(c.exec('kubectl auth can-i list pods -n team-a --as=jane').stdout).toBe('yes\n');
		// Other kinds in the file are not reconcile's business.
		expect(c.exec('kubectl get cm skipped -n team-a').exitCode).toBe(1);
		expect(c.exec('kubectl auth reconcile -f rbac.yaml')).toMatchObject({ stderr: '', exitCode: 0 });
	});

	it('adds the rules and subjects the cluster lacks, and removes extras only when asked', () => {
		const c = createCluster({ seed: 8 });
		c.exec(RBAC);
		c.exec('kubectl auth reconcile -f rbac.yaml');
		c.exec(`sed -i 's/"get", "list"/"get", "list", "watch"/; s/name: jane/name: bob/' rbac.yaml`);
		const second = c.exec('kubectl auth reconcile -f rbac.yaml');
		expect(second.stderr).toContain('\treconciliation required update\n\tmissing rules added:\n\t\t{Verbs:[watch] APIGroups:[] Resources:[pods] ResourceNames:[] NonResourceURLs:[]}\n');
		expect(second.stderr).toContain('\tmissing subjects added:\n\t\t{Kind:User APIGroup:rbac.authorization.k8s.io Name:bob Namespace:}\n');
		expect(c.exec('kubectl get rolebinding read-pods -n team-a -o jsonpath={.subjects[*].name}').stdout).toBe('jane bob');
		const dry = c.exec('kubectl auth reconcile -f rbac.yaml --remove-extra-subjects --dry-run=client');
		expect(dry.stdout).toContain('rolebinding.rbac.authorization.k8s.io/read-pods reconciled (dry run)\n');
		expect(dry.stderr).toContain('\textra subjects removed:\n\t\t{Kind:User APIGroup:rbac.authorization.k8s.io Name:jane Namespace:}\n');
		expect(c.exec('kubectl get rolebinding read-pods -n team-a -o jsonpath={.subjects[*].name}').stdout).toBe('jane bob');
		c.exec('kubectl auth reconcile -f rbac.yaml --remove-extra-subjects');
		expect(c.exec('kubectl get rolebinding read-pods -n team-a -o jsonpath={.subjects[*].name}').stdout).toBe('bob');
		expect(c.exec('kubectl auth can-i list pods -n team-a --as=jane').stdout).toBe('no\n');
	});

	it('recreates a binding whose roleRef changed, and refuses a server dry run', () => {
		const c = createCluster({ seed: 8 });
		c.exec(RBAC);
		c.exec('kubectl auth reconcile -f rbac.yaml');
		c.exec("sed -i 's/  kind: Role$/  kind: ClusterRole/; s/  name: pod-reader$/  name: view/' rbac.yaml");
		const changed = c.exec('kubectl auth reconcile -f rbac.yaml');
		expect(changed.stderr).toContain('\treconciliation required recreate\n');
		expect(c.exec('kubectl get rolebinding read-pods -n team-a -o jsonpath={.roleRef.kind}/{.roleRef.name}').stdout).toBe('ClusterRole/view');
		expect(c.exec('kubectl auth reconcile -f rbac.yaml --dry-run=server').stderr).toBe('error: --dry-run=server for command reconcile is not supported yet\n');
	});
});
