/**
 * The ReplicationController manager: the ReplicaSet controller's code run
 * over ReplicationControllers, whose selector is a plain label map (an
 * equality-only selector) and whose status has no terminatingReplicas.
 * Upstream wraps the ReplicaSet controller the same way, converting each
 * ReplicationController to a ReplicaSet and back; the garbage collector's
 * conformance tests lean on it.
 *
 * Mirrors pkg/controller/replication/replication_controller.go,
 * pkg/controller/replication/conversion.go.
 */
import { R } from '../client/client.ts';
import type { ControllerHost } from './controller-context.ts';
import { ReplicaSetController, type ReplicatedKind } from './replicaset.ts';

export const REPLICATION_CONTROLLERS: ReplicatedKind = {
	controllerName: 'replicationcontroller-controller',
	sub: 'replicationcontroller',
	resource: 'replicationcontrollers',
	ref: R.replicationcontrollers,
	kind: 'ReplicationController',
	// NewReplicationManager's event source.
	eventSource: 'replication-controller',
	noun: 'replication controller',
	// A map selector means "these labels, exactly": matchLabels (validation refuses an empty one).
	selectorOf: (owner) => {
		const selector = (owner.spec as { selector?: unknown }).selector;
		if (!selector || typeof selector !== 'object') return undefined;
		return { matchLabels: { ...(selector as Record<string, string>) } };
	},
	countsTerminating: false,
};

export class ReplicationManager extends ReplicaSetController {
	constructor(host: ControllerHost) {
		super(host, REPLICATION_CONTROLLERS);
	}
}
