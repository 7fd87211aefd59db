/**
 * `kubectl create ingress` and `kubectl create quota` as their help
 * examples use them, and `kubectl describe ingress|ingressclass` on the
 * result: backends with the ready addresses behind their Service (or the
 * error reading it), no Address without an ingress controller.
 */
import { describe, expect, it } from 'vitest';
import { createCluster } from '../../index.ts';

describe('kubectl create ingress and quota', () => {
	const c = createCluster({ seed: 9 });
	const out = (line: string) => c.exec(line).output;

	it('builds ingresses from rules: hosts grouped, * for Prefix, ports by number or name, TLS hosts per secret', () => {
		const yaml = out('kubectl create ingress multi --class=default --rule="foo.com/=svc:port" --rule="foo.com/admin/*=svcadmin:8080,tls=secret1" --rule="bar.com/x=svc2:http,tls=secret1" --dry-run=client -o yaml');
		expect(yaml).toBe(
			[
				'apiVersion: networking.k8s.io/v1',
				'kind: Ingress',
				'metadata:',
				'  name: multi',
				'spec:',
				'  ingressClassName: default',
				'  rules:',
				'  - host: foo.com',
				'    http:',
				'      paths:',
				'      - backend:',
				'          service:',
				'            name: svc',
				'            port:',
				'              name: port',
				'        path: /',
				'        pathType: Exact',
				'      - backend:',
				'          service:',
				'            name: svcadmin',
				'            port:',
				'              number: 8080',
				'        path: /admin/',
				'        pathType: Prefix',
				'  - host: bar.com',
				'    http:',
				'      paths:',
				'      - backend:',
				'          service:',
				'            name: svc2',
				'            port:',
				'              name: http',
				'        path: /x',
				'        pathType: Exact',
				'  tls:',
				'  - hosts:',
				'    - foo.com',
				'    - bar.com',
				'    secretName: secret1',
				'status:',
				'  loadBalancer: {}',
				'',
			].join('\n'),
		);
		expect(out('kubectl create ingress x --rule=foo')).toBe('error: rule foo is invalid and should be in format host/path=svcname:svcport[,tls[=secret]]\n');
		expect(out('kubectl create ingress x --rule=/a=b:c --annotation=nokey')).toBe('error: annotation nokey is invalid and should be in format key=[value]\n');
		expect(out('kubectl create ingress x --default-backend=web')).toBe('error: default-backend should be in format servicename:serviceport\n');
	});

	it('describes an ingress: each path with its backend addresses, no Address without a controller', () => {
		c.exec('kubectl create deployment web --image=nginx:1.27 --replicas=2; kubectl expose deployment web --port=80');
		c.settle({ maxMs: 60_000 });
		expect(out('kubectl create ingress site --class=nginx --rule="shop.example/*=web:80" --rule="shop.example/api=api:8080" --annotation=owner=team-a')).toBe('ingress.networking.k8s.io/site created\n');
		const described = out('kubectl describe ingress site');
		const ips = c.exec("kubectl get endpointslices -l kubernetes.io/service-name=web -o jsonpath='{.items[0].endpoints[*].addresses[0]}'").stdout.split(' ');
		expect(described).toMatch(/^Name:\s+site\nLabels:\s+<none>\nNamespace:\s+default\nAddress:\s+\nIngress Class:\s+nginx\nDefault backend:\s+<default>\nRules:\n {2}Host {10}Path {2}Backends\n {2}---- {10}---- {2}--------\n {2}shop\.example {2}\n/);
		expect(described).toContain(`/      web:80 (${ips.map((ip) => `${ip}:80`).join(',')})\n`);
		expect(described).toContain('/api   api:8080 (<error: services "api" not found>)\n');
		expect(described).toMatch(/Annotations:\s+owner: team-a\nEvents:\s+<none>\n$/);
		c.exec('kubectl create -f - <<EOF\napiVersion: networking.k8s.io/v1\nkind: IngressClass\nmetadata:\n  name: nginx\nspec:\n  controller: k8s.io/ingress-nginx\nEOF');
		expect(out('kubectl describe ingressclass nginx')).toBe('Name:         nginx\nLabels:       <none>\nAnnotations:  <none>\nController:   k8s.io/ingress-nginx\nEvents:       <none>\n');
	});

	it('creates quotas from --hard and --scopes, with the quantities checked', () => {
		expect(out('kubectl create quota my-quota --hard=cpu=1,memory=1G,pods=2')).toBe('resourcequota/my-quota created\n');
		expect(c.exec("kubectl get quota my-quota -o jsonpath='{.spec.hard}'").stdout).toBe('{"cpu":"1","memory":"1G","pods":"2"}');
		expect(out('kubectl create quota best-effort --hard=pods=100 --scopes=BestEffort --dry-run=client -o yaml')).toBe('apiVersion: v1\nkind: ResourceQuota\nmetadata:\n  name: best-effort\nspec:\n  hard:\n    pods: "100"\n  scopes:\n  - BestEffort\nstatus: {}\n');
		expect(out('kubectl create quota q --hard=cpu')).toBe('error: Invalid argument syntax cpu, expected <resource>=<value>\n');
		expect(out('kubectl create quota q --hard=cpu=lots')).toBe("error: quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'\n");
		expect(out('kubectl create quota q --scopes=BestEffort,')).toBe('error: invalid resource quota scope ""\n');
	});
});
