/**
 * The reconciler the EndpointSlice controller drives: given a Service, the
 * Pods it selects and the slices it already has, it works out per address
 * type which slices to create, update and delete (keeping endpoints where
 * they are, filling slices being written anyway, keeping one placeholder
 * slice for a Service without endpoints), turns create-and-delete pairs into
 * updates, and sends the writes, telling the tracker what it wrote.
 *
 * Differences: endpoints keep the Pods' name order (upstream's map
 * iteration decides). Topology-aware hints, `trafficDistribution` and the
 * metrics cache (metrics/cache.go) are not modelled; the counts of what
 * one reconcile wrote go to the controller's trace instead.
 *
 * Mirrors staging/src/k8s.io/endpointslice/reconciler.go.
 */
import type { KubeObject, Node, Pod, Service } from '../../api/types.ts';
import { R } from '../../client/client.ts';
import { deepCopy } from '../../golang/json.ts';
import type { ControllerHost } from '../controller-context.ts';
import { canonicalJson } from '../hash.ts';
import { isNamespaceTerminating } from '../pod-util.ts';
import { endpointsEqualBeyondHash, portMapKey, shouldPodBeInEndpoints, sortPorts, type SliceEndpoint, type SlicePort } from '../util/endpoint.ts';
import { EndpointSet } from './endpointset.ts';
import type { EndpointSliceTracker } from './endpointslice-tracker.ts';
import {
	addressTypesForService,
	endpointPortsFor,
	endpointSliceLabels,
	endpointsOf,
	newEndpointSlice,
	ownedBy,
	podToEndpoint,
	portsOf,
	setTriggerTimeAnnotation,
	sliceToFill,
	toWire,
	type WireEndpointSlice,
} from './utils.ts';

/** utilerrors.NewAggregate(errs).Error(): one message as is, several as `[a, b]`. */
export function aggregateErrors(errors: readonly string[]): string | undefined {
	if (errors.length === 0) return undefined;
	return errors.length === 1 ? errors[0] : `[${errors.join(', ')}]`;
}

/**
 * placeholderSliceCompare: namespace, labels and owner references of the
 * metadata, and everything outside it, with nil and empty lists equal.
 */
function samePlaceholder(a: WireEndpointSlice, b: WireEndpointSlice): boolean {
	const view = (s: WireEndpointSlice) =>
		canonicalJson({ ns: s.metadata.namespace ?? '', labels: s.metadata.labels ?? {}, owners: s.metadata.ownerReferences ?? [], addressType: s.addressType, endpoints: endpointsOf(s), ports: portsOf(s) });
	return view(a) === view(b);
}

/** What one reconcile changed (for the trace). */
interface ReconcileOutcome {
	created: number;
	updated: number;
	deleted: number;
	endpoints: number;
	error?: string;
}

/** What the reconciler is given (NewReconciler). */
interface ReconcilerConfig {
	/** The controller's host: its API client and the shared Node informer. */
	host: Pick<ControllerHost, 'client' | 'informer'>;
	tracker: EndpointSliceTracker;
	maxEndpointsPerSlice: number;
	/** The managed-by value of the slices it writes. */
	controllerName: string;
}

export class Reconciler {
	private readonly host: ReconcilerConfig['host'];
	private readonly tracker: EndpointSliceTracker;
	private readonly maxEndpointsPerSlice: number;
	private readonly controllerName: string;

	constructor(config: ReconcilerConfig) {
		this.host = config.host;
		this.tracker = config.tracker;
		this.maxEndpointsPerSlice = config.maxEndpointsPerSlice;
		this.controllerName = config.controllerName;
	}

	/** Reconcile: per address type the Service supports; slices of other types go. */
	reconcile(service: Service, pods: readonly Pod[], existing: readonly WireEndpointSlice[], triggerMs: number): ReconcileOutcome {
		const outcome: ReconcileOutcome = { created: 0, updated: 0, deleted: 0, endpoints: 0 };
		const errors: string[] = [];
		const supported = addressTypesForService(service);
		const byType = new Map<string, WireEndpointSlice[]>();
		const unsupported: WireEndpointSlice[] = [];
		for (const slice of existing) {
			if (!supported.includes(slice.addressType as 'IPv4' | 'IPv6')) unsupported.push(slice);
			else byType.set(slice.addressType, [...(byType.get(slice.addressType) ?? []), slice]);
		}
		for (const addressType of supported) {
			const error = this.reconcileByAddressType(service, pods, byType.get(addressType) ?? [], triggerMs, addressType, outcome);
			if (error !== undefined) errors.push(error);
		}
		for (const slice of unsupported) {
			const error = this.deleteSlice(service, slice);
			if (error !== undefined) errors.push(`error deleting ${slice.metadata.name} EndpointSlice for Service ${service.metadata.namespace}/${service.metadata.name}: ${error}`);
			else outcome.deleted++;
		}
		outcome.error = aggregateErrors(errors);
		return outcome;
	}

	/** deleteEndpointSlice: a slice already gone is fine. */
	private deleteSlice(service: Service, slice: WireEndpointSlice): string | undefined {
		const deleted = this.host.client.delete(R.endpointslices, service.metadata.namespace, slice.metadata.name ?? '');
		if (!deleted.ok) return deleted.code === 404 ? undefined : deleted.message;
		this.tracker.expectDeletion(slice);
		return undefined;
	}

	/** reconcileByAddressType: the desired endpoints, grouped by the ports they resolve to, against the existing slices. */
	private reconcileByAddressType(service: Service, pods: readonly Pod[], existing: readonly WireEndpointSlice[], triggerMs: number, addressType: 'IPv4' | 'IPv6', outcome: ReconcileOutcome): string | undefined {
		const errors: string[] = [];
		const toCreate: WireEndpointSlice[] = [];
		const toUpdate: WireEndpointSlice[] = [];
		let toDelete: WireEndpointSlice[] = [];
		const existingByPortMap = new Map<string, WireEndpointSlice[]>();
		for (const slice of existing) {
			if (ownedBy(slice, service)) {
				const key = portMapKey(portsOf(slice));
				existingByPortMap.set(key, [...(existingByPortMap.get(key) ?? []), slice]);
			} else toDelete.push(slice);
		}
		const desiredPorts = new Map<string, SlicePort[]>();
		const desiredEndpoints = new Map<string, EndpointSet>();
		const nodes = this.host.informer('nodes');
		for (const pod of pods) {
			if (!shouldPodBeInEndpoints(pod, true)) continue;
			const ports = sortPorts(endpointPortsFor(service, pod));
			const key = portMapKey(ports);
			if (!desiredEndpoints.has(key)) desiredEndpoints.set(key, new EndpointSet());
			if (!desiredPorts.has(key)) desiredPorts.set(key, ports);
			const node = nodes.get(pod.spec.nodeName ?? '') as Node | undefined;
			if (!node && !service.spec?.publishNotReadyAddresses) {
				// Leave the Pod out but come back later: the pod garbage collector should remove a Pod of a missing Node.
				errors.push(`skipping Pod ${pod.metadata.name} for Service ${service.metadata.namespace}/${service.metadata.name}: Node ${pod.spec.nodeName ?? ''} Not Found`);
				continue;
			}
			const endpoint = podToEndpoint(pod, node, service, addressType);
			if (endpoint.addresses.length > 0) desiredEndpoints.get(key)!.insert(endpoint);
		}
		for (const [key, set] of desiredEndpoints) {
			outcome.endpoints += set.size;
			const result = this.reconcileByPortMapping(service, existingByPortMap.get(key) ?? [], set, desiredPorts.get(key) ?? [], addressType);
			toCreate.push(...result.toCreate);
			toUpdate.push(...result.toUpdate);
			toDelete.push(...result.toDelete);
		}
		// Port sets nobody wants any more.
		for (const [key, slices] of existingByPortMap) if (!desiredEndpoints.has(key)) toDelete.push(...slices);
		// A Service with no endpoints still gets one empty slice.
		if (existing.length === toDelete.length && toCreate.length < 1) {
			const placeholder = newEndpointSlice(service, [], addressType, this.controllerName);
			if (toDelete.length === 1 && samePlaceholder(toDelete[0], placeholder)) toDelete = [];
			else toCreate.push(placeholder);
		}
		const error = this.finalize(service, toCreate, toUpdate, toDelete, triggerMs, outcome);
		if (error !== undefined) errors.push(error);
		return aggregateErrors(errors);
	}

	/**
	 * reconcileByPortMapping: keep each existing slice's wanted endpoints
	 * (updating those that changed, deleting slices left empty), fill the
	 * slices being updated anyway, then put what is left in the unchanged
	 * slice that fits best, or in new slices.
	 */
	private reconcileByPortMapping(
		service: Service,
		existing: readonly WireEndpointSlice[],
		desired: EndpointSet,
		ports: SlicePort[],
		addressType: 'IPv4' | 'IPv6',
	): { toCreate: WireEndpointSlice[]; toUpdate: WireEndpointSlice[]; toDelete: WireEndpointSlice[] } {
		const max = this.maxEndpointsPerSlice;
		const byName = new Map<string, WireEndpointSlice>();
		const unchanged = new Set<string>();
		const toUpdateNames = new Set<string>();
		const toDeleteNames = new Set<string>();
		// 1. Existing slices: drop endpoints no longer wanted, refresh those that changed.
		for (const slice of existing) {
			const name = slice.metadata.name ?? '';
			byName.set(name, slice);
			const kept: SliceEndpoint[] = [];
			let endpointUpdated = false;
			for (const endpoint of endpointsOf(slice)) {
				const want = desired.get(endpoint);
				if (!want) continue;
				kept.push(want);
				if (!endpointsEqualBeyondHash(want, endpoint)) endpointUpdated = true;
				desired.delete(endpoint);
			}
			const { labels, changed } = endpointSliceLabels(slice, service, this.controllerName);
			if (endpointUpdated || endpointsOf(slice).length !== kept.length) {
				if (kept.length === 0) toDeleteNames.add(name);
				else {
					const copy = deepCopy(slice);
					copy.endpoints = kept;
					copy.metadata.labels = labels;
					byName.set(name, copy);
					toUpdateNames.add(name);
				}
			} else if (changed) {
				const copy = deepCopy(slice);
				copy.metadata.labels = labels;
				byName.set(name, copy);
				toUpdateNames.add(name);
			} else unchanged.add(name);
		}
		// 2. Fill the slices that are written anyway, fullest first.
		if (desired.size > 0 && toUpdateNames.size > 0) {
			const filling = [...toUpdateNames].map((n) => byName.get(n)!).sort((a, b) => endpointsOf(b).length - endpointsOf(a).length);
			for (const slice of filling) {
				const list = endpointsOf(slice);
				while (desired.size > 0 && list.length < max) list.push(desired.popAny()!);
				slice.endpoints = list;
			}
		}
		// 3. The rest: into the unchanged slice that fits best, else into new slices.
		const toCreate: WireEndpointSlice[] = [];
		// Each pass places at least one endpoint, so this ends.
		while (desired.size > 0) {
			let target: WireEndpointSlice | undefined;
			if (desired.size < max && unchanged.size > 0) target = sliceToFill([...unchanged].map((n) => byName.get(n)!), desired.size, max);
			if (!target) target = newEndpointSlice(service, ports, addressType, this.controllerName);
			else {
				target = deepCopy(target);
				byName.set(target.metadata.name ?? '', target);
			}
			const list = endpointsOf(target);
			while (desired.size > 0 && list.length < max) list.push(desired.popAny()!);
			target.endpoints = list;
			if (target.metadata.name) {
				toUpdateNames.add(target.metadata.name);
				unchanged.delete(target.metadata.name);
			} else toCreate.push(target);
		}
		return {
			toCreate,
			toUpdate: [...toUpdateNames].map((n) => byName.get(n)!),
			toDelete: [...toDeleteNames].map((n) => byName.get(n)!),
		};
	}

	/**
	 * finalize: creations paired with deletions become updates of the slices
	 * that would go; then create (not while the Service is being deleted, so
	 * the garbage collector is not raced), update, delete.
	 */
	private finalize(service: Service, toCreate: WireEndpointSlice[], toUpdate: WireEndpointSlice[], toDelete: WireEndpointSlice[], triggerMs: number, outcome: ReconcileOutcome): string | undefined {
		const ns = service.metadata.namespace;
		const svc = `${ns}/${service.metadata.name}`;
		const creates = [...toCreate];
		const updates = [...toUpdate];
		const deletes = [...toDelete];
		for (let i = 0; i < deletes.length && creates.length > 0; ) {
			const doomed = deletes[i];
			const fresh = creates[creates.length - 1];
			// Only slices of this Service and address type: others may be an old Service's, waiting for the garbage collector.
			if (doomed.addressType === fresh.addressType && ownedBy(doomed, service)) {
				fresh.metadata.name = doomed.metadata.name;
				creates.pop();
				updates.push(fresh);
				deletes.splice(i, 1);
			} else i++;
		}
		if (!service.metadata.deletionTimestamp) {
			for (const slice of creates) {
				setTriggerTimeAnnotation(slice, triggerMs);
				const created = this.host.client.create<WireEndpointSlice>(R.endpointslices, ns, toWire(slice));
				if (!created.ok) {
					// A terminating namespace refuses every creation: drop the item.
					if (isNamespaceTerminating(created)) return undefined;
					return `failed to create EndpointSlice for Service ${svc}: ${created.message}`;
				}
				this.tracker.update(created.object);
				outcome.created++;
			}
		}
		for (const slice of updates) {
			setTriggerTimeAnnotation(slice, triggerMs);
			const updated = this.host.client.update<WireEndpointSlice>(R.endpointslices, toWire(slice) as KubeObject);
			if (!updated.ok) return `failed to update ${slice.metadata.name} EndpointSlice for Service ${svc}: ${updated.message}`;
			this.tracker.update(updated.object);
			outcome.updated++;
		}
		for (const slice of deletes) {
			const error = this.deleteSlice(service, slice);
			if (error !== undefined) return `failed to delete ${slice.metadata.name} EndpointSlice for Service ${svc}: ${error}`;
			outcome.deleted++;
		}
		return undefined;
	}
}
