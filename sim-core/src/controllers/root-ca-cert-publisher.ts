/**
 * The root CA publisher: a ConfigMap `kube-root-ca.crt` with the cluster CA
 * (key `ca.crt`) in every namespace, put back if deleted or changed, so pods
 * can verify the API server (projected service account volumes mount it).
 *
 * One addition: it does not create the ConfigMap in a namespace that is
 * terminating. Upstream tries and the API server's NamespaceLifecycle
 * admission refuses; checking first gives the same result without that
 * admission plugin.
 *
 * Mirrors pkg/controller/certificates/rootcacertpublisher/publisher.go.
 */
import type { ConfigMap, KubeObject, Namespace } from '../api/types.ts';
import { R } from '../client/client.ts';
import { ControllerBase, type ControllerHost, type SyncError } from './controller-context.ts';
import { isNamespaceTerminating } from './pod-util.ts';
import { deepCopy } from '../golang/json.ts';

const ROOT_CA_CONFIGMAP_NAME = 'kube-root-ca.crt';
const DESCRIPTION_ANNOTATION = 'kubernetes.io/description';
export const ROOT_CA_DESCRIPTION =
	'Contains a CA bundle that can be used to verify the kube-apiserver when using internal endpoints such as the internal service IP or kubernetes.default.svc. No other usage is guaranteed across distributions of Kubernetes clusters.';

export class RootCaCertPublisher extends ControllerBase<Record<string, never>> {
	readonly name = 'root-ca-certificate-publisher-controller';
	readonly sub = 'root-ca-cert-publisher';
	readonly resources = ['namespaces', 'configmaps'] as const;

	constructor(
		host: ControllerHost,
		/** The CA bundle (PEM), as --root-ca-file gives it. */
		private readonly rootCa: string,
	) {
		super(host);
	}

	freshState(): Record<string, never> {
		return {};
	}

	override onAdd(resource: string, obj: KubeObject): void {
		if (resource === 'namespaces') this.enqueue(obj.metadata.name ?? '');
	}

	override onUpdate(resource: string, _old: KubeObject, obj: KubeObject): void {
		if (resource === 'namespaces' && ((obj as Namespace).status?.phase ?? 'Active') === 'Active') this.enqueue(obj.metadata.name ?? '');
		else if (resource === 'configmaps' && obj.metadata.name === ROOT_CA_CONFIGMAP_NAME) this.enqueue(obj.metadata.namespace ?? '');
	}

	override onDelete(resource: string, obj: KubeObject): void {
		if (resource === 'configmaps' && obj.metadata.name === ROOT_CA_CONFIGMAP_NAME) this.enqueue(obj.metadata.namespace ?? '');
	}

	sync(key: string): SyncError {
		const ns = this.host.informer('namespaces').get(key) as Namespace | undefined;
		if (!ns || ns.metadata.deletionTimestamp || (ns.status?.phase ?? 'Active') !== 'Active') return undefined;
		const data = { 'ca.crt': this.rootCa };
		const cm = this.host.informer('configmaps').get(`${key}/${ROOT_CA_CONFIGMAP_NAME}`) as ConfigMap | undefined;
		if (!cm) {
			this.trace('reconcile', `configmaps/${key}/${ROOT_CA_CONFIGMAP_NAME}`, `publishing the cluster CA in namespace ${key}`);
			const body: ConfigMap = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: ROOT_CA_CONFIGMAP_NAME, namespace: key, annotations: { [DESCRIPTION_ANNOTATION]: ROOT_CA_DESCRIPTION } }, data };
			const created = this.host.client.create(R.configmaps, key, body);
			if (created.ok || created.code === 404 || isNamespaceTerminating(created)) return undefined;
			return created.message;
		}
		const sameData = JSON.stringify(cm.data ?? {}) === JSON.stringify(data);
		if (sameData && (cm.metadata.annotations?.[DESCRIPTION_ANNOTATION] ?? '').length > 0) return undefined;
		const copy = deepCopy(cm);
		copy.data = data;
		copy.metadata.annotations = { ...(copy.metadata.annotations ?? {}), [DESCRIPTION_ANNOTATION]: ROOT_CA_DESCRIPTION };
		this.trace('reconcile', `configmaps/${key}/${ROOT_CA_CONFIGMAP_NAME}`, `restoring the cluster CA in namespace ${key}`);
		const updated = this.host.client.update(R.configmaps, copy);
		return updated.ok ? undefined : updated.message;
	}
}
