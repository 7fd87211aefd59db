/**
 * The metrics-server reference page prints what the release manifest holds
 * (the image, the container's arguments, its requests, ports and probes,
 * the Service and the APIService) and the binary's defaults that the
 * simulated metrics-server applies when a flag is absent. This installs the
 * manifest in a booted cluster from the URL the page gives (through
 * kubectl, as a reader would) and compares it with what both locales
 * print, so neither the page nor the simulation can drift alone.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createCluster } from '@cluster-anatomy/sim-core';
// The flag parser is a pure function: the defaults live there, as in metrics-server's options.go.
import { parseFlags } from '../../sim-core/src/metrics-server/metrics-server.ts';
import { CONTENT_DIR, LOCALES, type Locale } from './book.ts';

const URL = 'https://github.com/kubernetes-sigs/metrics-server/releases/latest/download/components.yaml';

function page(locale: Locale): string {
	return readFileSync(join(CONTENT_DIR, locale === 'en' ? '' : locale, 'reference/metrics-server.mdx'), 'utf8');
}

/** The rows of every Markdown table of the page: first cell -> the other cells (later rows with the same key are kept apart by index). */
function tableRows(source: string): Map<string, string[]> {
	const rows = new Map<string, string[]>();
	for (const line of source.split('\n')) {
		if (!line.startsWith('|') || /^\|\s*-/.test(line)) continue;
		const cells = line.split('|').slice(1, -1).map((c) => c.trim());
		if (!rows.has(cells[0]!)) rows.set(cells[0]!, cells.slice(1));
	}
	return rows;
}

/** A cell without its code spans' backticks and the spaces between them. */
const plain = (cell: string) => cell.replace(/[`\s]/g, '');

const cluster = createCluster({ seed: 7 });
const kubectl = (command: string) => {
	const result = cluster.exec(`kubectl ${command}`);
	expect(result.exitCode, `kubectl ${command}: ${result.stderr}`).toBe(0);
	return result.stdout;
};
const applied = kubectl(`apply -f ${URL}`);
type Probe = { httpGet: { path: string; port: string }; periodSeconds: number; failureThreshold: number; initialDelaySeconds?: number };
const deployment = JSON.parse(kubectl('-n kube-system get deployment metrics-server -o json')) as {
	spec: { replicas: number; strategy: { rollingUpdate: { maxUnavailable: number } }; template: { spec: { priorityClassName: string; containers: Array<{ image: string; args: string[]; ports: Array<{ name: string; containerPort: number }>; resources: { requests: Record<string, string> }; readinessProbe: Probe; livenessProbe: Probe }> } } };
};
const container = deployment.spec.template.spec.containers[0]!;
const service = JSON.parse(kubectl('-n kube-system get service metrics-server -o json')) as { spec: { ports: Array<{ port: number; targetPort: string }> } };
const apiservice = JSON.parse(kubectl('get apiservice v1beta1.metrics.k8s.io -o json')) as { spec: { insecureSkipTLSVerify: boolean; groupPriorityMinimum: number; versionPriority: number } };

describe('the metrics-server numbers the reference page prints', () => {
	it('the release URL creates the nine objects the page counts', () => {
		expect(applied.trim().split('\n')).toHaveLength(9);
		for (const locale of LOCALES) expect(page(locale)).toMatch(/creates nine objects|创建九个对象/);
	});

	it.each(LOCALES)('(%s) lists the image, replicas, strategy, requests, port, probes, Service and APIService of the manifest', (locale) => {
		const rows = tableRows(page(locale));
		const cell = (...keys: string[]) => keys.map((k) => rows.get(k)?.join(' | ') ?? '').join(' | ');
		expect(cell('Image', '镜像')).toContain(container.image);
		expect(cell('Deployment')).toMatch(new RegExp(`\\b${deployment.spec.replicas ?? 1} (replica|个副本)`));
		expect(cell('Deployment')).toContain(`maxUnavailable: ${deployment.spec.strategy.rollingUpdate.maxUnavailable}`);
		const requests = cell('Requests', '请求值');
		expect(requests).toContain(container.resources.requests.cpu);
		expect(requests).toContain(container.resources.requests.memory);
		const port = container.ports.find((p) => p.name === 'https')!;
		expect(cell('Container port', '容器端口')).toContain(String(port.containerPort));
		const probes = cell('Probes', '探针');
		expect(probes).toContain(container.readinessProbe.httpGet.path);
		expect(probes).toContain(container.livenessProbe.httpGet.path);
		expect(probes).toMatch(new RegExp(`${container.readinessProbe.periodSeconds} (s|秒)`));
		expect(probes).toMatch(new RegExp(`${container.readinessProbe.failureThreshold} (failures|次)`));
		expect(probes).toMatch(new RegExp(`${container.readinessProbe.initialDelaySeconds} (s|秒)`));
		expect(cell('Priority class', '优先级类')).toContain(deployment.spec.template.spec.priorityClassName);
		expect(cell('Service')).toContain(`${service.spec.ports[0]!.port} `);
		expect(apiservice.spec.insecureSkipTLSVerify).toBe(true);
		expect(cell('APIService')).toContain('insecureSkipTLSVerify: true');
		expect([apiservice.spec.groupPriorityMinimum, apiservice.spec.versionPriority]).toEqual([100, 100]);
	});

	it.each(LOCALES)('(%s) gives the manifest\'s arguments and the binary defaults the simulated metrics-server applies', (locale) => {
		const rows = tableRows(page(locale));
		for (const arg of container.args) {
			const [flag, value] = arg.includes('=') ? arg.split('=') : [arg, undefined];
			const row = rows.get(`\`${flag}\``);
			expect(row, `a row for ${flag}`).toBeDefined();
			if (value !== undefined) expect(plain(row![0]), flag).toBe(value);
		}
		const defaults = parseFlags([]);
		expect(rows.get('`--metric-resolution`')![1]).toBe(`\`${defaults.resolutionMs / 1000}s\``);
		expect(plain(rows.get('`--kubelet-preferred-address-types`')![1])).toBe(defaults.preferredAddressTypes.join(','));
		expect(rows.get('`--kubelet-port`')![1]).toBe(String(defaults.kubeletPort));
		expect(defaults.insecureTls).toBe(false);
		expect(defaults.useNodeStatusPort).toBe(false);
	});
});
