/**
 * kubectl diff through the public API: a new object diffs against nothing,
 * an applied one against its changed manifest (the server's dry-run answer,
 * generation bumped, nothing stored), a Secret's values masked, and the
 * exit statuses scripts rely on (0 none, 1 differences, 2 kubectl failed).
 */
import { describe, expect, it } from 'vitest';
import { Cluster } from '../../cluster/cluster.ts';

const WEB = (replicas: number, image: string) => `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: ${replicas}
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
      - name: nginx
        image: ${image}
`;

const HEADER = /^diff -u -N (\/tmp\/LIVE-\d+)\/apps\.v1\.Deployment\.default\.web (\/tmp\/MERGED-\d+)\/apps\.v1\.Deployment\.default\.web\n--- \1\/apps\.v1\.Deployment\.default\.web\t(\S+ \S+ \+0000)\n\+\+\+ \2\/apps\.v1\.Deployment\.default\.web\t\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{9} \+0000\n/;

describe('kubectl diff', () => {
	it('shows a new object whole, against an absent LIVE file, and creates nothing', () => {
		const c = new Cluster({ seed: 5 });
		c.writeFile('/home/reader/web.yaml', WEB(2, 'nginx:1.25'));
		const r = c.exec('kubectl diff -f web.yaml');
		expect(r.exitCode).toBe(1);
		const header = HEADER.exec(r.stdout);
		expect(header, r.stdout.slice(0, 300)).not.toBeNull();
		expect(header![3]).toBe('1970-01-01 00:00:00.000000000 +0000');
		const hunk = r.stdout.slice(header![0].length);
		expect(hunk).toMatch(/^@@ -0,0 \+1,\d+ @@\n\+apiVersion: apps\/v1\n\+kind: Deployment\n/);
		// The server's dry run answered with its defaults and a uid, as a created object has them.
		expect(hunk).toContain('+  progressDeadlineSeconds: 600\n');
		expect(hunk).toMatch(/\+  uid: [0-9a-f-]{36}\n/);
		expect(hunk).not.toContain('managedFields');
		expect(c.exec('kubectl get deployments').stdout).toBe('');
	});

	it('exits 0 with nothing to say for an applied manifest, and 1 with the changes once it differs; the object stays as it was', () => {
		const c = new Cluster({ seed: 5 });
		c.writeFile('/home/reader/web.yaml', WEB(2, 'nginx:1.25'));
		expect(c.exec('kubectl apply -f web.yaml').exitCode).toBe(0);
		expect(c.exec('kubectl diff -f web.yaml')).toMatchObject({ stdout: '', stderr: '', exitCode: 0 });
		c.writeFile('/home/reader/web.yaml', WEB(3, 'nginx:1.27'));
		const r = c.exec('kubectl diff -f web.yaml');
		expect(r.exitCode).toBe(1);
		expect(r.stdout).toMatch(HEADER);
		expect(r.stdout).toContain('-  generation: 1\n+  generation: 2\n');
		expect(r.stdout).toContain('-  replicas: 2\n+  replicas: 3\n');
		expect(r.stdout).toContain('-      - image: nginx:1.25\n+      - image: nginx:1.27\n');
		// Three lines of context around each change, as diff -u gives.
		expect(r.stdout).toContain('   progressDeadlineSeconds: 600\n-  replicas: 2\n+  replicas: 3\n   revisionHistoryLimit: 10\n');
		expect(c.exec("kubectl get deployment web -o jsonpath='{.spec.replicas} {.metadata.generation}'").stdout).toBe('2 1');
	});

	it('masks a Secret\'s values, marking the ones that would change', () => {
		const c = new Cluster({ seed: 5 });
		expect(c.exec('kubectl create secret generic db --from-literal=user=admin --from-literal=password=old --save-config').exitCode).toBe(0);
		c.writeFile('/home/reader/db.yaml', 'apiVersion: v1\nkind: Secret\nmetadata:\n  name: db\ndata:\n  user: YWRtaW4=\n  password: bmV3\n');
		const r = c.exec('kubectl diff -f db.yaml');
		expect(r.exitCode).toBe(1);
		expect(r.stdout).toContain('-  password: \'*** (before)\'\n+  password: \'*** (after)\'\n');
		expect(r.stdout).toContain('   user: \'***\'\n');
		// Only data and stringData are masked: the last-applied annotation still carries the manifest, as upstream's does (kubernetes/kubectl#1453).
		const lines = r.stdout.split('\n').filter((l) => !l.includes('last-applied-configuration') && !l.trimStart().startsWith('{') && !/^[-+ ] *\{"apiVersion"/.test(l));
		expect(lines.join('\n')).not.toMatch(/b2xk|bmV3|YWRtaW4/);
	});

	it('fails with status 2, not 1, when kubectl itself fails', () => {
		const c = new Cluster({ seed: 5 });
		expect(c.exec('kubectl diff -f missing.yaml')).toMatchObject({ stderr: 'error: the path "missing.yaml" does not exist\n', exitCode: 2 });
		expect(c.exec('kubectl diff')).toMatchObject({ exitCode: 2 });
		expect(c.exec('kubectl diff').stderr).toContain('error: must specify one of -f and -k');
	});
});

describe('kubectl plugin list', () => {
	it('finds no plugins on a fresh workstation', () => {
		const c = new Cluster({ seed: 5 });
		expect(c.exec('kubectl plugin list')).toMatchObject({ stdout: '', stderr: 'error: unable to find any kubectl plugins in your PATH\n', exitCode: 1 });
	});
});
