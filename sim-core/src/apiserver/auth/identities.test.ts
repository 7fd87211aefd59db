import { describe, it, expect } from 'vitest';
import type { UserInfo } from '../../api/request.ts';
import { controllerIdentity, controllerServiceAccount, identityOf } from './identities.ts';

describe('the identities of the cluster processes', () => {
	const table: Array<[string, UserInfo | undefined]> = [
		['kubectl', { username: 'kubernetes-admin', groups: ['kubeadm:cluster-admins', 'system:authenticated'] }],
		['kube-scheduler', { username: 'system:kube-scheduler', groups: ['system:authenticated'] }],
		['kube-controller-manager', { username: 'system:kube-controller-manager', groups: ['system:authenticated'] }],
		['kubelet/node-1', { username: 'system:node:node-1', groups: ['system:nodes', 'system:authenticated'] }],
		['kube-proxy/node-2', { username: 'system:serviceaccount:kube-system:kube-proxy', groups: ['system:serviceaccounts', 'system:serviceaccounts:kube-system', 'system:authenticated'] }],
		['kube-apiserver', { username: 'system:apiserver', groups: ['system:masters', 'system:authenticated'] }],
		['kube-controller-manager/deployment-controller', { username: 'system:serviceaccount:kube-system:deployment-controller', groups: ['system:serviceaccounts', 'system:serviceaccounts:kube-system', 'system:authenticated'] }],
		['etcd', undefined],
		['container-runtime/node-1', undefined],
		['kubelet', undefined],
	];
	it.each(table)('%s', (processId, expected) => {
		expect(identityOf(processId)).toEqual(expected);
	});

	it('gives a controller its service account unless --use-service-account-credentials is off', () => {
		expect(identityOf('kube-controller-manager', { controller: 'garbage-collector-controller' })?.username).toBe('system:serviceaccount:kube-system:generic-garbage-collector');
		expect(identityOf('kube-controller-manager', { controller: 'garbage-collector-controller', useServiceAccountCredentials: false })?.username).toBe('system:kube-controller-manager');
		expect(controllerIdentity('no-such-controller').username).toBe('system:kube-controller-manager');
	});

	const accounts: Array<[string, string]> = [
		['deployment-controller', 'deployment-controller'],
		['replicaset-controller', 'replicaset-controller'],
		['daemonset-controller', 'daemon-set-controller'],
		['garbage-collector-controller', 'generic-garbage-collector'],
		['namespace-controller', 'namespace-controller'],
		['serviceaccount-controller', 'service-account-controller'],
		['root-ca-certificate-publisher-controller', 'root-ca-cert-publisher'],
		['node-lifecycle-controller', 'node-controller'],
		['taint-eviction-controller', 'node-controller'],
		['node-ipam-controller', 'node-controller'],
		['endpoints-controller', 'endpoint-controller'],
		['pod-garbage-collector-controller', 'pod-garbage-collector'],
	];
	it.each(accounts)('controller %s acts as service account %s', (controller, account) => {
		expect(controllerServiceAccount(controller)).toBe(account);
	});
});
