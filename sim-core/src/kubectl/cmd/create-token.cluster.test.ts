import { describe, it, expect } from 'vitest';
import { createCluster, restoreCluster } from '../../index.ts';

/**
 * ServiceAccount tokens and kubectl's -v logging on a whole booted cluster,
 * as the kube-apiserver chapter uses them: curl without credentials is
 * system:anonymous, a token from `kubectl create token` authenticates as
 * the service account, RBAC then decides.
 */
const API = 'https://192.168.56.10:6443';
const PODS = `${API}/api/v1/namespaces/default/pods`;

/** The chapter's anonymous answer, byte for byte (kube-apiserver pretty-prints JSON for curl's User-Agent). */
const ANONYMOUS_403 = `{
  "kind": "Status",
  "apiVersion": "v1",
  "metadata": {},
  "status": "Failure",
  "message": "pods is forbidden: User \\"system:anonymous\\" cannot list resource \\"pods\\" in API group \\"\\" in the namespace \\"default\\"",
  "reason": "Forbidden",
  "details": {
    "kind": "pods"
  },
  "code": 403
}`;

const UNAUTHORIZED_401 = `{
  "kind": "Status",
  "apiVersion": "v1",
  "metadata": {},
  "status": "Failure",
  "message": "Unauthorized",
  "reason": "Unauthorized",
  "code": 401
}`;

function chapterCluster() {
	const c = createCluster();
	expect(c.exec('kubectl create deployment web --image=nginx:1.27 --replicas=2').exitCode).toBe(0);
	expect(c.exec('kubectl create serviceaccount ci').stdout).toBe('serviceaccount/ci created\n');
	c.settle({ maxMs: 60_000 });
	return c;
}

describe('ServiceAccount tokens end to end', () => {
	it('refuses anonymous curl with the chapter 403, and lets the token of ci in once ci may view', () => {
		const c = chapterCluster();
		expect(c.exec(`curl -k ${PODS}`).stdout).toBe(ANONYMOUS_403);

		expect(c.exec('TOKEN=$(kubectl create token ci)')).toMatchObject({ exitCode: 0, stderr: '' });
		// Every real service account token starts so: base64url of `{"alg":"RS256","kid":"`.
		expect(c.exec('echo "$TOKEN"').stdout.startsWith('eyJhbGciOiJSUzI1NiIsImtpZCI6I')).toBe(true);
		const asCi = `curl -k -s -H "Authorization: Bearer $TOKEN" ${PODS}`;
		expect(c.exec(asCi).stdout).toBe(ANONYMOUS_403.replace('system:anonymous', 'system:serviceaccount:default:ci'));

		expect(c.exec('kubectl create rolebinding ci-view --clusterrole=view --serviceaccount=default:ci').exitCode).toBe(0);
		const list = JSON.parse(c.exec(asCi).stdout) as { kind: string; items: Array<{ metadata: { name: string } }> };
		expect(list.kind).toBe('PodList');
		expect(list.items.map((p) => p.metadata.name).sort()).toEqual(c.list('pods', 'default').map((p) => p.metadata.name).sort());
		expect(list.items).toHaveLength(2);
	});

	it('answers a token it did not sign, an expired one, and one of a deleted account with the upstream 401', () => {
		const c = chapterCluster();
		c.exec('kubectl create rolebinding ci-view --clusterrole=view --serviceaccount=default:ci');
		expect(c.exec(`curl -k -s -H "Authorization: Bearer not.a.token" ${PODS}`).stdout).toBe(UNAUTHORIZED_401);

		c.exec('SHORT=$(kubectl create token ci --duration=10m)');
		const withShort = `curl -k -s -o /dev/null -w '%{http_code}' -H "Authorization: Bearer $SHORT" ${PODS}`;
		expect(c.exec(withShort).stdout).toBe('200');
		// Ten minutes, plus go-jose's one-minute leeway, plus a second.
		c.advance('11m1s');
		expect(c.exec(withShort).stdout).toBe('401');

		c.exec('TOKEN=$(kubectl create token ci)');
		const withToken = `curl -k -s -o /dev/null -w '%{http_code}' -H "Authorization: Bearer $TOKEN" ${PODS}`;
		expect(c.exec(withToken).stdout).toBe('200');
		expect(c.exec('kubectl delete serviceaccount ci').exitCode).toBe(0);
		expect(c.exec(withToken).stdout).toBe('401');
		// The API server's trace says why; the client only learned 401.
		expect(c.trace().filter((e) => e.action === 'authenticate').at(-1)?.msg).toBe('unable to authenticate the request: serviceaccounts "ci" not found');
	}, 60_000);

	it('lets kubectl authenticate with a kubeconfig user that holds a token', () => {
		const c = chapterCluster();
		c.exec('TOKEN=$(kubectl create token ci)');
		c.writeFile('ci.conf', ['apiVersion: v1', 'kind: Config', 'clusters:', '- name: kubernetes', '  cluster:', `    server: ${API}`, 'contexts:', '- name: ci', '  context:', '    cluster: kubernetes', '    user: ci', 'current-context: ci', 'users:', '- name: ci', '  user:', '    token: TOKEN', ''].join('\n'));
		c.exec('sed -i "s/TOKEN/$TOKEN/" ci.conf');
		expect(c.exec('KUBECONFIG=ci.conf kubectl auth whoami').stdout).toMatch(/^ATTRIBUTE   VALUE\nUsername    system:serviceaccount:default:ci\nUID         [0-9a-f-]{36}\nGroups      \[system:serviceaccounts system:serviceaccounts:default system:authenticated\]\n$/);
		expect(c.exec('KUBECONFIG=ci.conf kubectl get pods').stderr).toBe('Error from server (Forbidden): pods is forbidden: User "system:serviceaccount:default:ci" cannot list resource "pods" in API group "" in the namespace "default"\n');
		c.exec('kubectl delete serviceaccount ci');
		expect(c.exec('KUBECONFIG=ci.conf kubectl get pods')).toMatchObject({ stderr: 'error: You must be logged in to the server (Unauthorized)\n', exitCode: 1 });
	});

	it('issues the same tokens after a snapshot is restored (a seeded key and jti stream)', () => {
		const c = chapterCluster();
		const copy = restoreCluster(JSON.parse(JSON.stringify(c.snapshot())));
		const a = c.exec('kubectl create token ci').stdout;
		const b = copy.exec('kubectl create token ci').stdout;
		expect(a).toBe(b);
		expect(c.fingerprint()).toBe(copy.fingerprint());
		// And the restored server accepts what the original issued.
		copy.exec('kubectl create rolebinding ci-view --clusterrole=view --serviceaccount=default:ci');
		expect(copy.exec(`curl -k -s -o /dev/null -w '%{http_code}' -H "Authorization: Bearer ${a}" ${PODS}`).stdout).toBe('200');
	});
});

describe('kubectl get pods -v=6 on a booted cluster', () => {
	it('prints the loader line, client-go feature gates and one Response line on stderr, the table on stdout', () => {
		const c = chapterCluster();
		const plain = c.exec('kubectl get pods');
		const verbose = c.exec('kubectl get pods -v=6');
		expect(verbose.exitCode).toBe(0);
		expect(verbose.stdout).toBe(plain.stdout);
		expect(verbose.stdout.split('\n')[0]).toBe('NAME                   READY   STATUS    RESTARTS   AGE');
		const lines = verbose.stderr.trimEnd().split('\n');
		const header = /^I1130 (\d\d:\d\d:\d\d\.\d{3})000 {4}(\d{4}) /;
		expect(lines).toHaveLength(12);
		for (const line of lines) expect(line).toMatch(header);
		// Every line carries the same virtual time and the same kubectl pid; the pid follows the shell's (4242).
		expect(new Set(lines.map((l) => header.exec(l)![1] + header.exec(l)![2])).size).toBe(1);
		expect(Number(header.exec(lines[0])![2])).toBeGreaterThan(4242);
		expect(lines[0].replace(header, '')).toBe('loader.go:407] Config loaded from file:  /home/reader/.kube/config');
		expect(lines[1].replace(header, '')).toBe('envvar.go:195] "Feature gate default state" feature="AtomicFIFO" enabled=true');
		expect(lines[11].replace(header, '')).toBe(`round_trippers.go:632] "Response" verb="GET" url="${PODS}?limit=500" status="200 OK" milliseconds=0`);
	});

	it('gives each kubectl run its own pid', () => {
		const c = chapterCluster();
		const pid = (line: string) => /^I\d{4} \S+ +(\d+) /.exec(c.exec(line).stderr)![1];
		expect(Number(pid('kubectl get nodes -v=6'))).toBe(Number(pid('kubectl get nodes -v=6')) - 1);
	});
});
