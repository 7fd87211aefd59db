/**
 * The service account controller: every active namespace gets a `default`
 * ServiceAccount, and gets it back if it is deleted. Since v1.24 no token
 * Secret is created for it.
 *
 * Mirrors pkg/controller/serviceaccount/serviceaccounts_controller.go.
 */
import type { KubeObject, Namespace, ServiceAccount } from '../api/types.ts';
import { R } from '../client/client.ts';
import { ControllerBase, type SyncError } from './controller-context.ts';
import { isNamespaceTerminating } from './pod-util.ts';

/** DefaultServiceAccountsControllerOptions: the accounts every namespace gets. */
const SERVICE_ACCOUNTS_TO_ENSURE = ['default'] as const;

export class ServiceAccountController extends ControllerBase<Record<string, never>> {
	readonly name = 'serviceaccount-controller';
	readonly sub = 'serviceaccount';
	readonly resources = ['namespaces', 'serviceaccounts'] as const;
	// One worker: kube-controller-manager runs it with Run(ctx, 1) (cmd/kube-controller-manager/app/core.go).

	freshState(): Record<string, never> {
		return {};
	}

	override onAdd(resource: string, obj: KubeObject): void {
		if (resource === 'namespaces') this.enqueue(obj.metadata.name ?? '');
	}

	override onUpdate(resource: string, _old: KubeObject, obj: KubeObject): void {
		if (resource === 'namespaces') this.enqueue(obj.metadata.name ?? '');
	}

	override onDelete(resource: string, obj: KubeObject): void {
		if (resource === 'serviceaccounts') this.enqueue(obj.metadata.namespace ?? '');
	}

	sync(key: string): SyncError {
		const ns = this.host.informer('namespaces').get(key) as Namespace | undefined;
		if (!ns) return undefined;
		// Only active namespaces (the API server sets phase Active at creation; absent reads as Active).
		if ((ns.status?.phase ?? 'Active') !== 'Active' || ns.metadata.deletionTimestamp) return undefined;
		const failures: string[] = [];
		for (const name of SERVICE_ACCOUNTS_TO_ENSURE) {
			if (this.host.informer('serviceaccounts').get(`${key}/${name}`)) continue;
			this.trace('reconcile', `serviceaccounts/${key}/${name}`, `creating service account ${key}/${name}`);
			const sa: ServiceAccount = { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name, namespace: key } };
			const created = this.host.client.create(R.serviceaccounts, key, sa);
			// AlreadyExists is fine; a terminating namespace refuses creations and that is fine too.
			if (!created.ok && created.reason !== 'AlreadyExists' && !isNamespaceTerminating(created)) failures.push(created.message);
		}
		return failures.length ? failures.join(', ') : undefined;
	}
}
