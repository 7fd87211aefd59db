import { describe, it, expect } from 'vitest';
import type { Toleration } from '../../api/types.ts';
import { PrefixWriter } from './prefix-writer.ts';
import { printAnnotationsMultiline, printTolerationsMultiline, rfc1123z, taintString } from './helpers.ts';
import { describeProbe } from './containers.ts';
import { camelcaseSplit, smartLabelFor } from './generic.ts';
import { breakdownRule, combineResourceGroup, compactRules } from './rbac.ts';
import { computePodQOS as computeSpecQOS } from '../../component-helpers/qos.ts';

const computePodQOS = (p: Pod) => computeSpecQOS(p.spec);
import type { Pod } from '../../api/types.ts';

const written = (write: (w: PrefixWriter) => void) => {
	const w = new PrefixWriter();
	write(w);
	return w.toString();
};

describe('rfc1123z', () => {
	it.each([
		['2026-11-30T08:00:00Z', 'Mon, 30 Nov 2026 08:00:00 +0000'],
		['2024-02-29T23:59:59Z', 'Thu, 29 Feb 2024 23:59:59 +0000'],
		['1970-01-01T00:00:00Z', 'Thu, 01 Jan 1970 00:00:00 +0000'],
		['2026-11-30T08:04:50.123456Z', 'Mon, 30 Nov 2026 08:04:50 +0000'],
		[undefined, 'Mon, 01 Jan 0001 00:00:00 +0000'],
	])('formats %j as %j', (input, output) => {
		expect(rfc1123z(input)).toBe(output);
	});
});

describe('printTolerationsMultiline', () => {
	it.each<[string, Toleration, string]>([
		['a key, value and effect', { key: 'dedicated', operator: 'Equal', value: 'gpu', effect: 'NoSchedule' }, 'dedicated=gpu:NoSchedule'],
		['an Exists toleration with a key', { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 }, 'node.kubernetes.io/not-ready:NoExecute op=Exists for 300s'],
		['the toleration of everything', { operator: 'Exists' }, 'op=Exists'],
		['an Exists toleration of one effect', { operator: 'Exists', effect: 'NoSchedule' }, ':NoSchedule op=Exists'],
	])('prints %s', (_name, toleration, text) => {
		expect(written((w) => printTolerationsMultiline(w, 'Tolerations', [toleration]))).toBe(`Tolerations:  ${text}\n`);
	});

	it('sorts by key and aligns continuation lines', () => {
		const out = written((w) => printTolerationsMultiline(w, 'Tolerations', [{ key: 'b', operator: 'Exists' }, { key: 'a', operator: 'Exists' }]));
		expect(out).toBe('Tolerations:  a op=Exists\n              b op=Exists\n');
	});
});

describe('taintString', () => {
	it.each([
		[{ key: 'k', value: 'v', effect: 'NoSchedule' as const }, 'k=v:NoSchedule'],
		[{ key: 'k', effect: 'NoExecute' as const }, 'k:NoExecute'],
	])('prints %j as %j', (taint, text) => {
		expect(taintString(taint)).toBe(text);
	});
});

describe('printAnnotationsMultiline', () => {
	it('hides the last-applied configuration and folds long or multi-line values', () => {
		const long = 'x'.repeat(150);
		const out = written((w) => printAnnotationsMultiline(w, 'Annotations', { 'kubectl.kubernetes.io/last-applied-configuration': '{}', a: 'short', b: 'two\nlines\n', c: long }));
		// b + ": " + the value would exceed 140 characters for c, so it is folded and cut at 138 characters.
		expect(out).toBe(`Annotations:  a: short\n              b:\n                two\n                lines\n              c:\n                ${'x'.repeat(138)}...\n`);
	});
});

describe('describeProbe', () => {
	it.each([
		[{ httpGet: { path: '/healthz', port: 8080, scheme: 'HTTP' }, timeoutSeconds: 1, periodSeconds: 10, successThreshold: 1, failureThreshold: 3 }, 'http-get http://:8080/healthz delay=0s timeout=1s period=10s #success=1 #failure=3'],
		[{ tcpSocket: { port: 5432 }, initialDelaySeconds: 5, timeoutSeconds: 1, periodSeconds: 10, successThreshold: 1, failureThreshold: 3 }, 'tcp-socket :5432 delay=5s timeout=1s period=10s #success=1 #failure=3'],
		[{ exec: { command: ['cat', '/tmp/healthy'] }, timeoutSeconds: 1, periodSeconds: 5, successThreshold: 1, failureThreshold: 3 }, 'exec [cat /tmp/healthy] delay=0s timeout=1s period=5s #success=1 #failure=3'],
	])('describes %j', (probe, text) => {
		expect(describeProbe(probe)).toBe(text);
	});
});

describe('smartLabelFor', () => {
	it.each([
		['holderIdentity', 'Holder Identity'],
		['leaseDurationSeconds', 'Lease Duration Seconds'],
		['apiVersion', 'API Version'],
		['uid', 'UID'],
		['podCIDRs', 'Pod CIDRs'],
		['resourceVersion', 'Resource Version'],
		['spec', 'Spec'],
		['k8s-app', 'k8s-app'],
		['kubernetes.io/hostname', 'kubernetes.io/hostname'],
	])('labels %j as %j', (field, label) => {
		expect(smartLabelFor(field)).toBe(label);
	});

	it('splits like fatih/camelcase', () => {
		expect(camelcaseSplit('PDFLoader')).toEqual(['PDF', 'Loader']);
		expect(camelcaseSplit('GL11Version')).toEqual(['GL', '11', 'Version']);
	});
});

describe('RBAC rule compaction', () => {
	it('breaks a rule down to one per group, resource and verb', () => {
		expect(breakdownRule({ apiGroups: ['', 'apps'], resources: ['a'], verbs: ['get', 'list'] })).toEqual([
			{ apiGroups: [''], resources: ['a'], verbs: ['get'] },
			{ apiGroups: [''], resources: ['a'], verbs: ['list'] },
			{ apiGroups: ['apps'], resources: ['a'], verbs: ['get'] },
			{ apiGroups: ['apps'], resources: ['a'], verbs: ['list'] },
		]);
	});

	it('merges the verbs of simple rules back, leaving URL rules apart', () => {
		const rules = [...breakdownRule({ apiGroups: [''], resources: ['pods'], verbs: ['get', 'list'] }), ...breakdownRule({ nonResourceURLs: ['/healthz'], verbs: ['get'] })];
		expect(compactRules(rules)).toEqual([{ nonResourceURLs: ['/healthz'], verbs: ['get'] }, { apiGroups: [''], resources: ['pods'], verbs: ['get', 'list'] }]);
	});

	it('names resources with their group and subresource', () => {
		expect(combineResourceGroup(['deployments/scale'], ['apps'])).toBe('deployments.apps/scale');
		expect(combineResourceGroup(['pods'], [''])).toBe('pods');
		expect(combineResourceGroup([], ['apps'])).toBe('');
	});
});

describe('computePodQOS', () => {
	const pod = (resources: Array<{ requests?: Record<string, string>; limits?: Record<string, string> }>) => ({ spec: { containers: resources.map((r, i) => ({ name: `c${i}`, resources: r })) } }) as unknown as Pod;
	it.each<[string, Pod, string]>([
		['nothing requested', pod([{}]), 'BestEffort'],
		['limits equal to requests for cpu and memory', pod([{ requests: { cpu: '500m', memory: '128Mi' }, limits: { cpu: '0.5', memory: '128Mi' } }]), 'Guaranteed'],
		['limits alone, before the API server defaults requests to them', pod([{ limits: { cpu: '1', memory: '1Gi' } }]), 'Burstable'],
		['a request below its limit', pod([{ requests: { cpu: '250m', memory: '64Mi' }, limits: { cpu: '500m', memory: '128Mi' } }]), 'Burstable'],
		['one guaranteed container beside a best-effort one', pod([{ requests: { cpu: '1', memory: '1Gi' }, limits: { cpu: '1', memory: '1Gi' } }, {}]), 'Burstable'],
	])('%s → %s', (_name, p, qos) => {
		expect(computePodQOS(p)).toBe(qos);
	});
});
