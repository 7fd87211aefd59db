/**
 * The Deployment controller: keeps one ReplicaSet per pod template, rolls
 * from the old ones to the new one as the strategy says, resizes, pauses,
 * reuses an old ReplicaSet when the template goes back to it (how `kubectl
 * rollout undo` works: kubectl copies the old template into the Deployment),
 * trims history and reports status.
 *
 * Left out: the deprecated server-side rollback (`rollbackTo` of
 * extensions/v1beta1, rollback.go), which apps/v1 clients never set.
 *
 * Mirrors pkg/controller/deployment/deployment_controller.go.
 */
import type { Deployment, KubeObject, Pod, ReplicaSet } from '../../api/types.ts';
import { R } from '../../client/client.ts';
import { keyOf } from '../../client/informer.ts';
import { ControllerBase, type SyncError } from '../controller-context.ts';
import { compileSelector, controllerOf } from '../pod-util.ts';
import { claimObjects } from '../ref-manager.ts';
import { withDeploymentDefaults } from './deployment-util.ts';
import { rolloutRecreate } from './recreate.ts';
import { rolloutRolling } from './rolling.ts';
import { SyncFailure, checkPausedConditions, isScalingEvent, syncScaling, syncStatusOnly, updateDeploymentStatus, type DeploymentSyncContext } from './sync.ts';

/** The event source (`kubectl describe` From column). */
const DEPLOYMENT_CONTROLLER = 'deployment-controller';

export class DeploymentController extends ControllerBase<Record<string, never>> {
	readonly name = DEPLOYMENT_CONTROLLER;
	readonly sub = 'deployment';
	readonly resources = ['deployments', 'replicasets', 'pods'] as const;
	/** --concurrent-deployment-syncs default 5 (pkg/controller/deployment/config/v1alpha1/defaults.go). */
	override readonly workers = 5;
	/** deployment_controller.go maxRetries: a Deployment failing 15 times in a row is dropped from the queue. */
	override readonly maxRetries = 15;

	freshState(): Record<string, never> {
		return {};
	}

	// ---- event handlers: enqueue only -------------------------------------------

	override onAdd(resource: string, obj: KubeObject): void {
		if (resource === 'deployments') this.enqueue(keyOf(obj));
		else if (resource === 'replicasets') this.replicaSetChanged(undefined, obj as ReplicaSet);
	}

	override onUpdate(resource: string, oldObj: KubeObject, newObj: KubeObject): void {
		if (resource === 'deployments') this.enqueue(keyOf(newObj));
		else if (resource === 'replicasets') this.replicaSetChanged(oldObj as ReplicaSet, newObj as ReplicaSet);
	}

	override onDelete(resource: string, obj: KubeObject): void {
		if (resource === 'deployments') this.enqueue(keyOf(obj));
		else if (resource === 'replicasets') {
			const d = this.deploymentFor(obj);
			if (d) this.enqueue(keyOf(d));
		} else if (resource === 'pods') this.podDeleted(obj as Pod);
	}

	/** addReplicaSet / updateReplicaSet: wake the owner, or the Deployments that could adopt an orphan. */
	private replicaSetChanged(oldRS: ReplicaSet | undefined, rs: ReplicaSet): void {
		if (oldRS && oldRS.metadata.resourceVersion === rs.metadata.resourceVersion) return;
		const ref = controllerOf(rs);
		const oldRef = oldRS ? controllerOf(oldRS) : undefined;
		if (oldRS && oldRef && oldRef.uid !== ref?.uid) {
			const old = this.deploymentFor(oldRS);
			if (old) this.enqueue(keyOf(old));
		}
		if (ref) {
			const d = this.deploymentFor(rs);
			if (d) this.enqueue(keyOf(d));
			return;
		}
		const labelsChanged = !oldRS || JSON.stringify(oldRS.metadata.labels ?? {}) !== JSON.stringify(rs.metadata.labels ?? {});
		if (labelsChanged || oldRef) for (const d of this.deploymentsSelecting(rs)) this.enqueue(keyOf(d));
	}

	/** deletePod: a Recreate Deployment waits for its last old pod to go. */
	private podDeleted(pod: Pod): void {
		const ref = controllerOf(pod);
		if (!ref || ref.kind !== 'ReplicaSet') return;
		const rs = this.host.informer('replicasets').get(`${pod.metadata.namespace}/${ref.name}`);
		if (!rs || rs.metadata.uid !== ref.uid) return;
		const d = this.deploymentFor(rs) as Deployment | undefined;
		if (!d || d.spec.strategy?.type !== 'Recreate') return;
		const rsList = this.ownedReplicaSets(d);
		const podMap = this.podMap(d, rsList);
		if (Object.values(podMap).every((pods) => pods.length === 0)) this.enqueue(keyOf(d));
	}

	/** resolveControllerRef: the Deployment a ReplicaSet's controller reference names, if it is still that one. */
	private deploymentFor(rs: KubeObject): Deployment | undefined {
		const ref = controllerOf(rs);
		if (!ref || ref.kind !== 'Deployment') return undefined;
		const d = this.host.informer('deployments').get(`${rs.metadata.namespace}/${ref.name}`) as Deployment | undefined;
		return d && d.metadata.uid === ref.uid ? d : undefined;
	}

	/** getDeploymentsForReplicaSet: Deployments in the namespace whose selector matches the labels. */
	private deploymentsSelecting(rs: ReplicaSet): Deployment[] {
		return this.host.listInNamespace<Deployment>('deployments', rs.metadata.namespace).filter((d) => {
			const selector = compileSelector(d.spec.selector);
			return selector.ok && !selector.empty && selector.matches(rs.metadata.labels);
		});
	}

	private ownedReplicaSets(d: Deployment): ReplicaSet[] {
		return this.host.listInNamespace<ReplicaSet>('replicasets', d.metadata.namespace).filter((rs) => controllerOf(rs)?.uid === d.metadata.uid);
	}

	/** getPodMapForDeployment: the selected pods of each owned ReplicaSet, by ReplicaSet uid (inactive pods included). */
	private podMap(d: Deployment, rsList: ReplicaSet[]): Record<string, Pod[]> {
		const map: Record<string, Pod[]> = {};
		for (const rs of rsList) map[rs.metadata.uid ?? ''] = [];
		const selector = compileSelector(d.spec.selector);
		if (!selector.ok) return map;
		// Each ReplicaSet's pods from the controller-UID index, not a walk over the namespace.
		for (const rs of rsList) {
			const uid = rs.metadata.uid ?? '';
			if (uid) map[uid] = this.host.listControlledBy<Pod>('pods', d.metadata.namespace, uid).filter((pod) => selector.matches(pod.metadata.labels));
		}
		return map;
	}

	// ---- the sync loop ---------------------------------------------------------------

	sync(key: string): SyncError {
		const cached = this.host.informer('deployments').get(key) as Deployment | undefined;
		if (!cached) {
			this.trace('reconcile', `deployments/${key}`, `deployment ${key} has been deleted`);
			return undefined;
		}
		this.trace('reconcile', `deployments/${key}`, `syncing deployment ${key}`);
		try {
			this.syncDeployment(cached);
			return undefined;
		} catch (error) {
			if (error instanceof SyncFailure) return error.message;
			return `internal error: ${error instanceof Error ? error.message : String(error)}`;
		}
	}

	private context(key: string): DeploymentSyncContext {
		return {
			client: this.host.client,
			recorder: this.host.recorder(DEPLOYMENT_CONTROLLER),
			now: () => this.nowRfc3339(),
			wallMs: () => this.wallMs,
			enqueueAfter: (_d, delayMs) => this.host.enqueueAfter(this.sub, key, delayMs, true),
			enqueueRateLimited: () => this.host.enqueueRateLimited(this.sub, key),
		};
	}

	/** syncDeployment. */
	private syncDeployment(cached: Deployment): void {
		const key = keyOf(cached);
		const ctx = this.context(key);
		const d = withDeploymentDefaults(cached);
		const selector = compileSelector(d.spec.selector);
		if (selector.ok && selector.empty) {
			ctx.recorder.record(d, 'Warning', 'SelectingAll', 'This deployment is selecting all pods. A non-empty selector is required.');
			if ((d.status?.observedGeneration ?? 0) < (d.metadata.generation ?? 0)) {
				d.status = { ...(d.status ?? {}), observedGeneration: d.metadata.generation };
				updateDeploymentStatus(ctx, d);
			}
			return;
		}
		if (!selector.ok) throw new SyncFailure(`deployment ${key} has invalid label selector: ${selector.error}`);

		const rsList = this.getReplicaSetsForDeployment(d, selector.matches);
		const podMap = this.podMap(d, rsList);
		if (d.metadata.deletionTimestamp) {
			syncStatusOnly(ctx, d, rsList);
			return;
		}
		checkPausedConditions(ctx, d);
		if (d.spec.paused) {
			syncScaling(ctx, d, rsList);
			return;
		}
		if (isScalingEvent(ctx, d, rsList)) {
			syncScaling(ctx, d, rsList);
			return;
		}
		if (d.spec.strategy.type === 'Recreate') rolloutRecreate(ctx, d, rsList, podMap);
		else rolloutRolling(ctx, d, rsList);
	}

	/** getReplicaSetsForDeployment: claims (adopts and releases) the ReplicaSets of the namespace. */
	private getReplicaSetsForDeployment(d: Deployment, matches: (labels: Record<string, string> | undefined) => boolean): ReplicaSet[] {
		const all = this.host.listInNamespace<ReplicaSet>('replicasets', d.metadata.namespace);
		const result = claimObjects({ client: this.host.client, owner: d, ownerResource: R.deployments, childResource: R.replicasets, matches: (rs) => matches(rs.metadata.labels) }, all);
		if (result.errors.length) throw new SyncFailure(result.errors.join('; '));
		return result.claimed as ReplicaSet[];
	}
}
