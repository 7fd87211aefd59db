/**
 * The pods and services proxy subresources through the whole cluster, as
 * the Conformance suite checks them (test/e2e/network/proxy.go, v1.36): an
 * agnhost `porter --json-response` Pod behind a Service, reached through
 * the API server with every HTTP method, with and without a path; the
 * server's JSON names the method it received. Requests go out from the
 * workstation with curl and a cluster-admin ServiceAccount token, as a
 * reader (or the suite's http.Client) would send them.
 */
import { describe, expect, it } from 'vitest';
import { createCluster } from '../../index.ts';

const API = 'https://192.168.56.10:6443/api/v1/namespaces/default';
const VERBS = ['DELETE', 'GET', 'HEAD', 'OPTIONS', 'PATCH', 'POST', 'PUT'];

const POD = `apiVersion: v1
kind: Pod
metadata:
  name: agnhost
  labels:
    test: response
spec:
  restartPolicy: Never
  containers:
  - name: agnhost
    image: registry.k8s.io/e2e-test-images/agnhost:2.53
    args: ["porter", "--json-response"]
    env:
    - name: SERVE_PORT_80
      value: foo
`;

const SERVICE = `apiVersion: v1
kind: Service
metadata:
  name: test-service
  labels:
    test: response
spec:
  selector:
    test: response
  ports:
  - port: 80
    targetPort: 80
    protocol: TCP
`;

function withPorter(seed: number) {
	const c = createCluster({ seed });
	c.writeFile('pod.yaml', POD);
	c.writeFile('svc.yaml', SERVICE);
	c.exec('kubectl apply -f pod.yaml -f svc.yaml');
	c.exec('kubectl create serviceaccount e2e');
	c.exec('kubectl create clusterrolebinding e2e --clusterrole=cluster-admin --serviceaccount=default:e2e');
	expect(c.exec('kubectl wait --for=condition=Ready pod/agnhost --timeout=60s').exitCode).toBe(0);
	c.advance('2s');
	expect(c.exec('TOKEN=$(kubectl create token e2e)').exitCode).toBe(0);
	/** validateProxyVerbRequest: HEAD must answer 200; the others 200 with `{"method":<verb>,"body":"foo"}`. */
	// -L: follow redirects, as the suite's http.Client does.
	const check = (url: string, verb: string) => {
		if (verb === 'HEAD') {
			expect(c.exec(`curl -skL -I -o /dev/null -w '%{http_code}' -H "Authorization: Bearer $TOKEN" '${url}'`).stdout).toBe('200');
			return;
		}
		const r = c.exec(`curl -skL -X ${verb} -w '\\n%{http_code}' -H "Authorization: Bearer $TOKEN" '${url}'`);
		const [body, code] = r.stdout.split('\n');
		expect(code).toBe('200');
		expect(JSON.parse(body)).toEqual({ method: verb, body: 'foo' });
	};
	return { c, check };
}

describe('[sig-network] Proxy version v1', () => {
	it('A set of valid responses are returned for both pod and service ProxyWithPath [Conformance]', () => {
		const { check } = withPorter(1);
		for (const verb of VERBS) {
			check(`${API}/pods/agnhost/proxy/some/path/with/${verb}`, verb);
			check(`${API}/services/test-service/proxy/some/path/with/${verb}`, verb);
		}
	});

	it('A set of valid responses are returned for both pod and service Proxy [Conformance]', () => {
		const { c, check } = withPorter(2);
		// A GET or HEAD of the bare root is redirected to `proxy/`, which curl -L follows as the suite's client does.
		for (const verb of VERBS) {
			check(`${API}/pods/agnhost/proxy?method=${verb}`, verb);
			check(`${API}/services/test-service/proxy?method=${verb}`, verb);
		}
		const redirect = c.exec(`curl -sk -i -H "Authorization: Bearer $TOKEN" '${API}/pods/agnhost/proxy?method=GET'`).stdout;
		expect(redirect).toMatch(/^HTTP\/2 301 \r\n/);
		expect(redirect).toContain('location: /api/v1/namespaces/default/pods/agnhost/proxy/?method=GET\r\n');
		// kubectl get --raw follows it, as client-go does.
		expect(c.exec('kubectl get --raw /api/v1/namespaces/default/pods/agnhost/proxy').stdout).toBe('{"method":"GET","body":"foo"}');
	});
});

describe('the proxy subresources', () => {
	it('name a port or a scheme in the id, and fail with the API server\'s words when nothing can answer', () => {
		const { c } = withPorter(3);
		const raw = (path: string) => {
			const r = c.exec(`kubectl get --raw ${path}`);
			return r.stdout + r.stderr;
		};
		expect(raw('/api/v1/namespaces/default/services/test-service:80/proxy/')).toBe('{"method":"GET","body":"foo"}');
		expect(raw('/api/v1/namespaces/default/services/http:test-service:/proxy/')).toBe('{"method":"GET","body":"foo"}');
		expect(raw('/api/v1/namespaces/default/services/test-service:81/proxy/')).toBe('Error from server (ServiceUnavailable): no service port 81 found for service "test-service"\n');
		const ip = c.exec('kubectl get pod agnhost -o jsonpath={.status.podIP}').stdout;
		expect(raw('/api/v1/namespaces/default/pods/agnhost:81/proxy/')).toBe(`Error from server (ServiceUnavailable): error trying to reach service: dial tcp ${ip}:81: connect: connection refused\n`);
		expect(raw('/api/v1/namespaces/default/pods/https:agnhost:80/proxy/')).toBe('Error from server (ServiceUnavailable): error trying to reach service: tls: first record does not look like a TLS handshake\n');
		expect(raw('/api/v1/namespaces/default/pods/ftp:agnhost:80/proxy/')).toBe('Error from server (BadRequest): invalid pod request "ftp:agnhost:80"\n');
		expect(raw('/api/v1/namespaces/default/pods/nobody/proxy/')).toBe('Error from server (NotFound): pods "nobody" not found\n');
		// A Service whose Pods are gone has no endpoint to proxy to.
		c.exec('kubectl delete pod agnhost');
		c.advance('5s');
		expect(raw('/api/v1/namespaces/default/services/test-service/proxy/')).toBe('Error from server (ServiceUnavailable): no endpoints available for service "test-service"\n');
	});

	it('need the right to the subresource, with the method\'s verb', () => {
		const { c } = withPorter(4);
		c.exec('kubectl create serviceaccount reader');
		c.exec('kubectl create role proxy-get --verb=get --resource=pods/proxy');
		c.exec('kubectl create rolebinding reader --role=proxy-get --serviceaccount=default:reader');
		c.exec('READER=$(kubectl create token reader)');
		expect(c.exec(`curl -sk -H "Authorization: Bearer $READER" '${API}/pods/agnhost/proxy/'`).stdout).toBe('{"method":"GET","body":"foo"}');
		const post = JSON.parse(c.exec(`curl -sk -X POST -H "Authorization: Bearer $READER" '${API}/pods/agnhost/proxy/'`).stdout);
		expect(post).toMatchObject({ code: 403, reason: 'Forbidden', message: 'pods "agnhost" is forbidden: User "system:serviceaccount:default:reader" cannot create resource "pods/proxy" in API group "" in the namespace "default"' });
	});
});
