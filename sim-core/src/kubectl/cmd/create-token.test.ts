import { describe, it, expect } from 'vitest';
import { utf8Decode } from '../../golang/utf8.ts';
import type { KubeObject } from '../../api/types.ts';
import { R } from '../../client/client.ts';
import { base64UrlDecode } from '../../apiserver/auth/jwt.ts';
import { world } from './testdata/env.ts';

const ISSUER = 'https://kubernetes.default.svc.cluster.local';

function setup() {
	const w = world({ namespaces: ['team'] });
	w.create({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'ci', namespace: 'default' } });
	w.create({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web-1', namespace: 'default' }, spec: { serviceAccountName: 'ci', nodeName: 'node-1', containers: [{ name: 'nginx', image: 'nginx:1.27' }] } });
	return w;
}

function claims(token: string): Record<string, unknown> {
	return JSON.parse(utf8Decode(base64UrlDecode(token.split('.')[1])!)) as Record<string, unknown>;
}

describe('kubectl create token', () => {
	it('prints the bare token when stdout is not a terminal, so $(...) holds exactly the token', () => {
		const w = setup();
		const result = w.kubectl('create token ci');
		expect(result.stderr).toBe('');
		expect(result.exitCode).toBe(0);
		expect(result.stdout).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
		expect(claims(result.stdout)).toMatchObject({ aud: [ISSUER], sub: 'system:serviceaccount:default:ci', iss: ISSUER });
	});

	it('ends the token with a newline on a terminal (printers.IsTerminal)', () => {
		const w = setup();
		w.env.tty = true;
		expect(w.kubectl('create token ci').stdout).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+\n$/);
	});

	it('asks for the duration, audiences and binding given by its flags', () => {
		const w = setup();
		const pod = w.get(R.pods, 'default', 'web-1') as KubeObject;
		const token = w.kubectl('create token ci --duration=2h --audience=vault --audience=https://example.com --bound-object-kind=Pod --bound-object-name=web-1').stdout;
		const c = claims(token);
		expect(c.aud).toEqual(['vault', 'https://example.com']);
		expect((c.exp as number) - (c.iat as number)).toBe(7200);
		expect((c['kubernetes.io'] as { pod: unknown }).pod).toEqual({ name: 'web-1', uid: pod.metadata.uid });
	});

	it('prints the TokenRequest with -o yaml (sorted, boundObjectRef null) and -o json (struct order)', () => {
		const w = setup();
		const yaml = w.kubectl('create token ci -o yaml').stdout.replace(/token: .*/, 'token: <jwt>');
		const uid = (w.get(R.serviceaccounts, 'default', 'ci') as KubeObject).metadata.uid;
		expect(yaml).toBe(
			[
				'apiVersion: authentication.k8s.io/v1',
				'kind: TokenRequest',
				'metadata:',
				'  creationTimestamp: "2026-11-30T08:00:00Z"',
				'  name: ci',
				'  namespace: default',
				`  uid: ${uid}`,
				'spec:',
				'  audiences:',
				`  - ${ISSUER}`,
				'  boundObjectRef: null',
				'  expirationSeconds: 3600',
				'status:',
				'  expirationTimestamp: "2026-11-30T09:00:00Z"',
				'  token: <jwt>',
				'',
			].join('\n'),
		);
		const json = w.kubectl('create token ci -o json').stdout;
		expect(json.split('\n').slice(0, 3)).toEqual(['{', '    "kind": "TokenRequest",', '    "apiVersion": "authentication.k8s.io/v1",']);
		expect(w.kubectl('create token ci -o name').stdout).toBe('tokenrequest.authentication.k8s.io/ci\n');
		expect(w.kubectl("create token ci -o jsonpath={.spec.expirationSeconds}").stdout).toBe('3600');
	});

	it('uses -n for the service account namespace', () => {
		const w = setup();
		expect(claims(w.kubectl('create token default -n team').stdout).sub).toBe('system:serviceaccount:team:default');
	});

	it.each([
		['create token', "error: exactly one NAME is required, got 0\nSee 'kubectl create token -h' for help and examples\n"],
		['create token ci other', "error: exactly one NAME is required, got 2\nSee 'kubectl create token -h' for help and examples\n"],
		['create token nobody', 'error: failed to create token: serviceaccounts "nobody" not found\n'],
		['create token ci --duration=1m', 'error: failed to create token: TokenRequest.authentication.k8s.io "" is invalid: spec.expirationSeconds: Invalid value: 60: may not specify a duration less than 10 minutes\n'],
		['create token ci --duration=-5m', 'error: --duration must be greater than or equal to 0\n'],
		['create token ci --duration=1500ms', 'error: --duration cannot be expressed in units less than seconds\n'],
		['create token ci --audience=', 'error: --audience must not be an empty string\n'],
		['create token ci --bound-object-name=web-1', 'error: --bound-object-name can only be set if --bound-object-kind is provided\n'],
		['create token ci --bound-object-uid=abc', 'error: --bound-object-uid can only be set if --bound-object-kind is provided\n'],
		['create token ci --bound-object-kind=Pod', 'error: --bound-object-name is required if --bound-object-kind is provided\n'],
		['create token ci --bound-object-kind=Deployment --bound-object-name=web', 'error: supported --bound-object-kind values are Node, Pod, Secret\n'],
		['create token ci --bound-object-kind=Pod --bound-object-name=ghost', 'error: failed to create token: pods "ghost" not found\n'],
		['create token ci --bound-object-kind=Pod --bound-object-name=web-1 --bound-object-uid=abc', 'error: failed to create token: Operation cannot be fulfilled on Pod "web-1": the UID in the bound object reference (abc) does not match the UID in record. The object might have been deleted and then recreated\n'],
		['create token ci -o wide', 'error: unable to match a printer suitable for the output format "wide", allowed formats are: go-template,go-template-file,json,jsonpath,jsonpath-as-json,jsonpath-file,kyaml,name,template,templatefile,yaml\n'],
	])('`kubectl %s` fails as upstream does', (line, stderr) => {
		const w = setup();
		const result = w.kubectl(line);
		expect(result).toEqual({ stdout: '', stderr, exitCode: 1 });
	});

	it('reports a refused connection wrapped in its own message', () => {
		const w = setup();
		w.harness.kernel.stop('kube-apiserver');
		expect(w.kubectl('create token ci').stderr).toBe('error: failed to create token: Post "https://192.168.56.10:6443/api/v1/namespaces/default/serviceaccounts/ci/token": dial tcp 192.168.56.10:6443: connect: connection refused\n');
	});

	it('is listed in kubectl create --help, with upstream Short text', () => {
		const w = setup();
		const help = w.kubectl('create --help').stdout;
		expect(help).toContain('Available Commands:\n  clusterrole           Create a cluster role\n');
		expect(help).toContain('\n  token                 Request a service account token\n');
		const own = w.kubectl('create token --help').stdout;
		expect(own).toMatch(/^Request a service account token\.\n\n /);
		expect(own).toContain('\nExamples:\n  # A token for the service account ci in the current namespace\n  kubectl create token ci\n');
		expect(own).toMatch(/\nOptions:\n(.|\n)*    --bound-object-kind='':\n\tBind the token to an object of this kind \(Pod, Secret or Node\):/);
		expect(own).toContain('\nUsage:\n  kubectl create token SERVICE_ACCOUNT_NAME [options]\n\nUse "kubectl options" for a list of global command-line options (applies to all commands).\n');
	});

	it('at -v=7 shows the typed client preferring protobuf, and the 201', () => {
		const w = setup();
		w.env.pid = 4211;
		const stderr = w.kubectl('create token ci -v=7').stderr;
		expect(stderr).toContain(
			'I1130 08:00:00.000000    4211 round_trippers.go:527] "Request" verb="POST" url="https://192.168.56.10:6443/api/v1/namespaces/default/serviceaccounts/ci/token" headers=<\n' +
				'\tAccept: application/vnd.kubernetes.protobuf,application/json\n' +
				'\tContent-Type: application/vnd.kubernetes.protobuf\n' +
				'\tUser-Agent: kubectl/v1.36.3 (linux/amd64) kubernetes/73fdc7a\n' +
				' >\n' +
				'I1130 08:00:00.000000    4211 round_trippers.go:632] "Response" status="201 Created" milliseconds=0\n',
		);
	});
});
