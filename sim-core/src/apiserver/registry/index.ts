/**
 * Every resource's strategy, keyed by `strategyKey(group, resource)`, for
 * the API server's `strategies` dependency. Upstream wires one storage per
 * resource in each group's storage_*.go; this is that table.
 *
 * Mirrors pkg/controlplane/apiserver/apis.go,
 * pkg/registry/core/rest/storage_core.go,
 * pkg/registry/apps/rest/storage_apps.go.
 */
import { strategyKey, type Strategy, type StrategyRegistry } from './strategy.ts';
import { podStrategy } from './pods.ts';
import { nodeStrategy } from './nodes.ts';
import { namespaceStrategy } from './namespaces.ts';
import { serviceStrategy } from './services.ts';
import { endpointsStrategy } from './endpoints.ts';
import { configMapStrategy } from './configmaps.ts';
import { secretStrategy } from './secrets.ts';
import { serviceAccountStrategy } from './serviceaccounts.ts';
import { eventStrategy } from './events.ts';
import { deploymentStrategy } from './deployments.ts';
import { replicaSetStrategy } from './replicasets.ts';
import { daemonSetStrategy } from './daemonsets.ts';
import { statefulSetStrategy } from './statefulsets.ts';
import { controllerRevisionStrategy } from './controllerrevisions.ts';
import { jobStrategy } from './jobs.ts';
import { cronJobStrategy } from './cronjobs.ts';
import { leaseStrategy } from './leases.ts';
import { endpointSliceStrategy } from './endpointslices.ts';
import { priorityClassStrategy } from './priorityclasses.ts';
import { podDisruptionBudgetStrategy } from './poddisruptionbudgets.ts';
import { horizontalPodAutoscalerStrategy } from './horizontalpodautoscalers.ts';
import { apiServiceStrategy } from './apiservices.ts';
import { builtinKindStrategies } from './builtin-kinds.ts';
import { certificateSigningRequestStrategy } from './certificatesigningrequests.ts';
import { componentStatusStrategy } from './componentstatus.ts';
import { clusterRoleBindingStrategy, clusterRoleStrategy, roleBindingStrategy, roleStrategyNamespaced } from './rbac.ts';

const RBAC = 'rbac.authorization.k8s.io';

/** The strategies the simulated kube-apiserver serves, one per group/resource. */
export function defaultStrategies(): StrategyRegistry {
	const table: Array<[string, string, Strategy]> = [
		['', 'pods', podStrategy],
		['', 'nodes', nodeStrategy],
		['', 'namespaces', namespaceStrategy],
		['', 'services', serviceStrategy],
		['', 'endpoints', endpointsStrategy],
		['', 'configmaps', configMapStrategy],
		['', 'secrets', secretStrategy],
		['', 'serviceaccounts', serviceAccountStrategy],
		['', 'events', eventStrategy],
		['apps', 'deployments', deploymentStrategy],
		['apps', 'replicasets', replicaSetStrategy],
		['apps', 'daemonsets', daemonSetStrategy],
		['apps', 'statefulsets', statefulSetStrategy],
		['apps', 'controllerrevisions', controllerRevisionStrategy],
		['batch', 'jobs', jobStrategy],
		['batch', 'cronjobs', cronJobStrategy],
		['autoscaling', 'horizontalpodautoscalers', horizontalPodAutoscalerStrategy],
		['apiregistration.k8s.io', 'apiservices', apiServiceStrategy],
		['coordination.k8s.io', 'leases', leaseStrategy],
		['discovery.k8s.io', 'endpointslices', endpointSliceStrategy],
		['policy', 'poddisruptionbudgets', podDisruptionBudgetStrategy],
		['scheduling.k8s.io', 'priorityclasses', priorityClassStrategy],
		['certificates.k8s.io', 'certificatesigningrequests', certificateSigningRequestStrategy],
		[RBAC, 'roles', roleStrategyNamespaced],
		[RBAC, 'rolebindings', roleBindingStrategy],
		[RBAC, 'clusterroles', clusterRoleStrategy],
		[RBAC, 'clusterrolebindings', clusterRoleBindingStrategy],
		['', 'componentstatuses', componentStatusStrategy],
		...builtinKindStrategies(),
	];
	const registry: StrategyRegistry = {};
	for (const [group, resource, strategy] of table) registry[strategyKey(group, resource)] = strategy;
	return registry;
}

export { strategyKey };
