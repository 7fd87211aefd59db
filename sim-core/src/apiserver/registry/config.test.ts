import { describe, it, expect } from 'vitest';
import type { KubeObject } from '../../api/types.ts';
import { formatFieldError } from '../errors.ts';
import type { StrategyContext } from './strategy.ts';
import { configMapStrategy } from './configmaps.ts';
import { base64Encode, secretStrategy } from './secrets.ts';

const ctx: StrategyContext = { now: '2026-11-30T08:00:00Z', user: { username: 'kubernetes-admin', groups: [] }, get: () => undefined, list: () => [], random: () => 0 };
const KEY_MESSAGE = "a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')";

const cm = (fields: Record<string, unknown>): KubeObject => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'app', namespace: 'default' }, ...fields });
const secret = (fields: Record<string, unknown>): KubeObject => ({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'db', namespace: 'default' }, ...fields });

function validate(strategy: typeof configMapStrategy, o: KubeObject): string[] {
	strategy.defaults?.(o);
	return strategy.validate!(o, ctx).map(formatFieldError);
}

describe('ConfigMap', () => {
	it.each([
		['a key with a space', cm({ data: { 'bad key': 'x' } }), [`data[bad key]: Invalid value: "bad key": ${KEY_MESSAGE}`]],
		['a key of ..', cm({ data: { '..': 'x' } }), ["data[..]: Invalid value: \"..\": must not be '..'"]],
		['a key in both data and binaryData', cm({ data: { a: 'x' }, binaryData: { a: 'eA==' } }), ['data[a]: Invalid value: "a": duplicate of key present in binaryData']],
		['more than 1 MiB of data', cm({ data: { big: 'x'.repeat(1024 * 1024 + 1) } }), [': Too long: may not be more than 1048576 bytes']],
	])('rejects %s', (_name, o, expected) => {
		expect(validate(configMapStrategy, o)).toEqual(expected);
	});

	it('accepts exactly 1 MiB', () => {
		expect(validate(configMapStrategy, cm({ data: { big: 'x'.repeat(1024 * 1024) } }))).toEqual([]);
	});

	it('refuses changes to an immutable ConfigMap', () => {
		const old = cm({ data: { a: '1' }, immutable: true });
		const next = cm({ data: { a: '2' } });
		expect(configMapStrategy.validateUpdate!(next, old, ctx).map(formatFieldError)).toEqual([
			'immutable: Forbidden: field is immutable when `immutable` is set',
			'data: Forbidden: field is immutable when `immutable` is set',
		]);
	});
});

describe('Secret', () => {
	it('defaults type to Opaque and folds stringData into base64 data, stringData winning', () => {
		const s = secret({ data: { user: base64Encode('old'), keep: base64Encode('k') }, stringData: { user: 'admin', password: 'pässword' } });
		secretStrategy.defaults!(s);
		expect(s).toEqual(secret({ type: 'Opaque', data: { user: 'YWRtaW4=', keep: 'aw==', password: 'cMOkc3N3b3Jk' } }));
	});

	it.each([
		['a bad key', secret({ data: { 'a/b': 'eA==' } }), [`data[a/b]: Invalid value: "a/b": ${KEY_MESSAGE}`]],
		['a TLS secret without its keys', secret({ type: 'kubernetes.io/tls', data: {} }), ['data[tls.crt]: Required value', 'data[tls.key]: Required value']],
		[
			'a service-account token without the annotation',
			secret({ type: 'kubernetes.io/service-account-token' }),
			['metadata.annotations[kubernetes.io/service-account.name]: Required value'],
		],
	])('rejects %s', (_name, o, expected) => {
		expect(validate(secretStrategy, o)).toEqual(expected);
	});

	it('refuses a type change and changes to an immutable Secret', () => {
		const old = secret({ type: 'Opaque', data: { a: 'MQ==' }, immutable: true });
		const next = secret({ type: 'kubernetes.io/basic-auth', data: { username: 'dQ==' }, immutable: true });
		expect(secretStrategy.validateUpdate!(next, old, ctx).map(formatFieldError)).toEqual([
			'type: Invalid value: "kubernetes.io/basic-auth": field is immutable',
			'data: Forbidden: field is immutable when `immutable` is set',
		]);
	});

	it('selects on type', () => {
		expect(secretStrategy.fields!(secret({ type: 'kubernetes.io/tls' }))).toEqual({ type: 'kubernetes.io/tls' });
	});
});
