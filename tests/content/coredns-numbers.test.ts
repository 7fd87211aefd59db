/**
 * The DNS chapter and the CoreDNS reference page state numbers the sandbox
 * also holds: kubeadm's Corefile, the image, the ports of the Service and
 * the probes, the TTL of the answers, the reload plugin's defaults. This
 * reads them from a booted cluster (through kubectl, as a reader would) and
 * from the simulated Corefile parser, and compares them with what both
 * locales print, so neither the pages nor the simulation can drift alone.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createCluster } from '@cluster-anatomy/sim-core';
// The parser is a pure function; the reload plugin's defaults live there, as in coredns' setup.go.
import { parseCorefile } from '../../sim-core/src/coredns/corefile.ts';
import { CONTENT_DIR, LOCALES, codeBlocks, type Locale } from './book.ts';

function page(locale: Locale, slug: string): string {
	return readFileSync(join(CONTENT_DIR, locale === 'en' ? '' : locale, `${slug}.mdx`), 'utf8');
}

/** The rows of every Markdown table of a page: first cell -> the other cells. */
function tableRows(source: string): Map<string, string[]> {
	const rows = new Map<string, string[]>();
	for (const line of source.split('\n')) {
		if (!line.startsWith('|') || /^\|\s*-/.test(line)) continue;
		const cells = line.split('|').slice(1, -1).map((c) => c.trim());
		if (!rows.has(cells[0]!)) rows.set(cells[0]!, cells.slice(1));
	}
	return rows;
}

const cluster = createCluster({ seed: 7 });
cluster.settle({ maxMs: 120_000 });
const kubectl = (command: string) => {
	const result = cluster.exec(`kubectl ${command}`);
	expect(result.exitCode, `kubectl ${command}: ${result.stderr}`).toBe(0);
	return result.stdout;
};
const corefile = kubectl(`-n kube-system get configmap coredns -o jsonpath='{.data.Corefile}'`);
const deployment = JSON.parse(kubectl('-n kube-system get deployment coredns -o json')) as {
	spec: { replicas: number; template: { spec: { containers: Array<{ image: string; ports: Array<{ name?: string; containerPort: number }>; livenessProbe: { httpGet: { path: string; port: number | string } }; readinessProbe: { httpGet: { path: string; port: number | string } }; resources: { requests: Record<string, string>; limits: Record<string, string> } }> } } };
};
const container = deployment.spec.template.spec.containers[0]!;
const service = JSON.parse(kubectl('-n kube-system get service kube-dns -o json')) as { spec: { clusterIP: string; ports: Array<{ port: number; protocol: string }> } };

describe('the CoreDNS numbers the book prints', () => {
	it.each(LOCALES)('the chapter (%s) shows kubeadm\'s Corefile exactly as the cluster holds it', (locale) => {
		const block = codeBlocks(page(locale, 'addons/dns')).find((b) => b.body.startsWith('.:53 {'));
		expect(block, 'a code block with the Corefile').toBeDefined();
		expect(block!.body.trim()).toBe(corefile.trim());
	});

	it('the Corefile the cluster holds carries the values the pages name', () => {
		expect(corefile).toMatch(/^\s+lameduck 5s$/m);
		expect(corefile).toMatch(/^\s+ttl 30$/m);
		expect(corefile).toMatch(/^\s+prometheus :9153$/m);
		expect(corefile).toMatch(/^\s+max_concurrent 1000$/m);
		expect(corefile).toMatch(/^\s+cache 30 \{$/m);
		const parsed = parseCorefile(corefile);
		expect(parsed.ok).toBe(true);
		if (!parsed.ok) return;
		expect(parsed.servers[0]!.kubernetes!.ttl).toBe(30);
		expect(parsed.servers[0]!.kubernetes!.pods).toBe('insecure');
	});

	it.each(LOCALES)('the reference page (%s) lists the image, replicas, Service IP, resources and ports of the cluster', (locale) => {
		const rows = tableRows(page(locale, 'reference/coredns'));
		const cell = (key: string) => rows.get(key)?.join(' | ') ?? '';
		expect(cell('Image').length > 0 ? cell('Image') : cell('镜像')).toContain(container.image);
		expect(cell('Deployment')).toMatch(new RegExp(`\\b${deployment.spec.replicas} (replicas|个副本)`));
		expect(cell('Service')).toContain(service.spec.clusterIP);
		const resources = locale === 'en' ? cell('Requests, limits') : cell('请求与限制');
		for (const value of [container.resources.requests.cpu, container.resources.requests.memory, container.resources.limits.memory]) expect(resources).toContain(value);
		// Ports: 53 for DNS on both transports, the probes' ports and paths, the metrics port.
		const protocols = service.spec.ports.filter((p) => p.port === 53).map((p) => p.protocol);
		expect(protocols.sort()).toEqual(['TCP', 'UDP']);
		expect(cell('53')).toContain('UDP, TCP');
		expect(cell('8080')).toContain(container.livenessProbe.httpGet.path);
		// kubeadm's probes name their ports (liveness-probe 8080, readiness-probe 8181).
		const portNumber = (name: string | number) => (typeof name === 'number' ? name : container.ports.find((p) => p.name === name)?.containerPort);
		expect(portNumber(container.livenessProbe.httpGet.port)).toBe(8080);
		expect(cell('8181')).toContain(container.readinessProbe.httpGet.path);
		expect(portNumber(container.readinessProbe.httpGet.port)).toBe(8181);
		expect(service.spec.ports.map((p) => p.port)).toContain(9153);
		expect(cell('9153')).toContain('/metrics');
	});

	it.each(LOCALES)('the reference page (%s) gives the reload and kubernetes plugin defaults the simulated CoreDNS uses', (locale) => {
		const rows = tableRows(page(locale, 'reference/coredns'));
		const defaults = parseCorefile('.:53 {\n    reload\n    kubernetes cluster.local\n}\n');
		expect(defaults.ok).toBe(true);
		if (!defaults.ok) return;
		const { reload, kubernetes } = defaults.servers[0]!;
		expect(rows.get('`reload`')!.join(' ')).toMatch(new RegExp(`${reload!.intervalMs / 1000} (s|秒).*${reload!.jitterMs / 1000} (s|秒)`));
		expect(rows.get('`ttl`')![0]).toBe(String(kubernetes!.ttl));
		expect(rows.get('`pods`')![0]).toBe(`\`${kubernetes!.pods}\``);
	});

	it('answers with the TTL the pages state (30 s with kubeadm)', () => {
		const answer = cluster.exec('ssh node-1 dig @10.96.0.10 +noall +answer kubernetes.default.svc.cluster.local');
		expect(answer.stdout).toMatch(/^kubernetes\.default\.svc\.cluster\.local\.\s+30\s+IN\s+A\s+10\.96\.0\.1$/m);
		for (const locale of LOCALES) expect(page(locale, 'reference/coredns')).toMatch(/30 s with kubeadm|kubeadm 下为 30 秒/);
	});
});
