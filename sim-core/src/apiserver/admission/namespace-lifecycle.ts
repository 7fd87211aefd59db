/**
 * NamespaceLifecycle: nothing may be created in a namespace that does not
 * exist or is being deleted, and the namespaces the cluster itself needs
 * (default, kube-system, kube-public) may not be deleted.
 *
 * Upstream falls back to a live read when its informer has not seen the
 * namespace yet; the simulated cache is always current, so one read does.
 *
 * Mirrors
 * staging/src/k8s.io/apiserver/pkg/admission/plugin/namespace/lifecycle/admission.go.
 */
import * as errors from '../errors.ts';
import type { AdmissionAttributes, AdmissionPlugin } from './plugin.ts';
import type { StrategyContext } from '../registry/strategy.ts';
import { admissionForbidden } from './errors.ts';

/** The immortal namespaces (metav1.NamespaceDefault, NamespaceSystem, NamespacePublic). */
const IMMORTAL_NAMESPACES = ['default', 'kube-system', 'kube-public'];

function isNamespace(a: AdmissionAttributes): boolean {
	return a.info.group === '' && a.info.resource === 'namespaces';
}

export const namespaceLifecycle: AdmissionPlugin = {
	name: 'NamespaceLifecycle',
	admit(a: AdmissionAttributes, ctx: StrategyContext) {
		// Cluster-scoped objects, namespaces themselves and deletions pass.
		if (isNamespace(a) || !a.info.namespaced || !a.namespace || a.operation === 'DELETE') return undefined;
		const namespace = ctx.get('', 'namespaces', undefined, a.namespace);
		if (!namespace) return errors.notFound('namespaces', a.namespace, '', 'namespaces');
		const phase = (namespace.status as { phase?: string } | undefined)?.phase;
		if (a.operation === 'CREATE' && phase === 'Terminating') {
			const response = admissionForbidden(a, `unable to create new content in namespace ${a.namespace} because it is being terminated`);
			// The Status carries a NamespaceTerminating cause, as upstream's does.
			const body = response.body as { details?: { causes?: Array<{ reason?: string; message?: string; field?: string }> } };
			if (body.details) body.details.causes = [{ reason: 'NamespaceTerminating', message: `namespace ${a.namespace} is being terminated`, field: 'metadata.namespace' }];
			return response;
		}
		return undefined;
	},
	validate(a: AdmissionAttributes) {
		// Deletions reach only the validating phase in the simulated server.
		if (a.operation === 'DELETE' && isNamespace(a) && IMMORTAL_NAMESPACES.includes(a.name)) {
			return errors.forbidden('namespaces', a.name, 'this namespace may not be deleted', '', 'namespaces');
		}
		return undefined;
	},
};
