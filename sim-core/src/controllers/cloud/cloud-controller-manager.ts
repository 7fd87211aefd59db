/**
 * cloud-controller-manager: the control loops that need the cloud's API,
 * split out of kube-controller-manager. It is the same controller-manager
 * framework (k8s.io/controller-manager: leader election, shared informers,
 * work queues) with its own controllers and its own Lease,
 * `kube-system/cloud-controller-manager`:
 *
 * - cloud-node-controller (./node-controller.ts): initializes new Nodes;
 * - cloud-node-lifecycle-controller (./node-lifecycle-controller.ts):
 *   deletes Nodes whose instances are gone, taints those shut down;
 * - service-lb-controller (./service-controller.ts): load balancers for
 *   Services of type LoadBalancer;
 * - node-route-controller (./route-controller.ts): the cloud's routes to
 *   Pod CIDRs, only with --configure-cloud-routes.
 *
 * Its flags as this cluster runs it (the DaemonSet in kube-system, see
 * cluster/bootstrap/cloud.ts): `--cloud-provider=simcloud --leader-elect=true
 * --configure-cloud-routes=false` (or true), with the manager's own service
 * account for every controller.
 *
 * Mirrors staging/src/k8s.io/cloud-provider/app/controllermanager.go
 * (DefaultInitFuncConstructors, the leader election on
 * "cloud-controller-manager'), staging/src/k8s.io/cloud-provider/app/core.go
 * (startCloudNodeController, startCloudNodeLifecycleController,
 * startServiceController, startRouteController),
 * staging/src/k8s.io/cloud-provider/names/controller_names.go.
 */
import type { ApiTransport } from '../../client/transport.ts';
import type { Kernel } from '../../sim/kernel.ts';
import { KubeControllerManager, type ControllerFactory } from '../controller-manager.ts';
import type { CloudProvider } from './cloud.ts';
import { CloudNodeController } from './node-controller.ts';
import { CloudNodeLifecycleController } from './node-lifecycle-controller.ts';
import { RouteController } from './route-controller.ts';
import { ServiceController } from './service-controller.ts';

/** The process id, the binary and its Lease. */
export const CLOUD_CONTROLLER_MANAGER = 'cloud-controller-manager';

export interface CloudControllerManagerOptions {
	/** The host name in the leader-election identity. */
	hostname: string;
	/** --configure-cloud-routes (upstream default true; false here unless asked, as flannel's overlay carries Pod traffic). */
	configureCloudRoutes: boolean;
	/** --cluster-cidr (the route controller deletes only routes inside it). */
	clusterCidr: string;
	/** --cluster-name (default "kubernetes'). */
	clusterName?: string;
	/** The process ends when it loses its lease (its container exits and the kubelet restarts it). */
	onLeadershipLost?: () => void;
}

/** The names of the controllers it runs, as --controllers knows them. */
export function cloudControllerNames(configureCloudRoutes: boolean): string[] {
	return ['cloud-node-controller', 'cloud-node-lifecycle-controller', 'service-lb-controller', ...(configureCloudRoutes ? ['node-route-controller'] : [])];
}

/** A cloud-controller-manager process talking to `cloud`. */
export function createCloudControllerManager(kernel: Kernel, transport: ApiTransport, cloud: CloudProvider, options: CloudControllerManagerOptions): KubeControllerManager {
	const factories: ControllerFactory[] = [(host) => new CloudNodeController(host, cloud), (host) => new CloudNodeLifecycleController(host, cloud), (host) => new ServiceController(host, cloud)];
	// startRouteController: "Will not configure cloud provider routes, --configure-cloud-routes: false".
	if (options.configureCloudRoutes) factories.push((host) => new RouteController(host, cloud, options.clusterName ?? 'kubernetes', options.clusterCidr));
	return new KubeControllerManager(
		kernel,
		transport,
		{
			controllerFactories: factories,
			leaseName: CLOUD_CONTROLLER_MANAGER,
			useServiceAccountCredentials: false,
			hostname: options.hostname,
			onLeadershipLost: options.onLeadershipLost,
		},
		CLOUD_CONTROLLER_MANAGER,
	);
}
