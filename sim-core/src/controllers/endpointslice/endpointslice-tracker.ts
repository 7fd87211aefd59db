/**
 * The EndpointSliceTracker: what the EndpointSlice controller last wrote per
 * Service (each slice's version, or that it deleted it), so that a slice
 * event caused by its own write is not taken for someone else's change, and
 * a sync against a cache that has not caught up with its writes is retried
 * instead of acted on.
 *
 * Differences: upstream compares `metadata.generation`; here the
 * resourceVersion stands in when a slice carries no generation (this API
 * server's EndpointSlice strategy sets none). The memory is a plain-JSON
 * part of the controller's state, so snapshots restore it.
 *
 * Mirrors staging/src/k8s.io/endpointslice/util/endpointslice_tracker.go.
 */
import type { Service } from '../../api/types.ts';
import { keyOf } from '../../client/informer.ts';
import { keyFor } from '../pod-util.ts';
import { LABEL_SERVICE_NAME, type WireEndpointSlice } from './utils.ts';

/** deletionExpected: the tracker's mark for a slice the controller deleted. */
const DELETION_EXPECTED = -1;

/** What the controller last wrote per Service: slice uid -> version (generation, or resourceVersion), or -1 when it deleted it. */
export interface EndpointSliceTrackerState {
	byService: Record<string, Record<string, number>>;
	/** Service key -> the uid the tracked writes were for. */
	serviceUids: Record<string, string>;
}

/** The version the tracker compares: generation when the API server sets one, else the resourceVersion. */
function sliceVersion(slice: WireEndpointSlice): number {
	if (typeof slice.metadata.generation === 'number') return slice.metadata.generation;
	return Number(slice.metadata.resourceVersion ?? 0) || 0;
}

/** The Service key a slice belongs to, from its service-name label (ServiceControllerKey). */
export function serviceKeyOfSlice(slice: WireEndpointSlice): string | undefined {
	const name = slice.metadata.labels?.[LABEL_SERVICE_NAME];
	return name ? keyFor(slice.metadata.namespace, name) : undefined;
}

export class EndpointSliceTracker {
	constructor(private readonly state: () => EndpointSliceTrackerState) {}

	private versionsOf(slice: WireEndpointSlice): Record<string, number> | undefined {
		const key = serviceKeyOfSlice(slice) ?? keyFor(slice.metadata.namespace, '');
		return this.state().byService[key];
	}

	/** Has: the tracker knows this slice. */
	has(slice: WireEndpointSlice): boolean {
		const versions = this.versionsOf(slice);
		return !!versions && Object.hasOwn(versions, slice.metadata.uid ?? '');
	}

	/** ShouldSync: the slice is unknown, or newer than what the controller wrote. */
	shouldSync(slice: WireEndpointSlice): boolean {
		const versions = this.versionsOf(slice);
		if (!versions || !Object.hasOwn(versions, slice.metadata.uid ?? '')) return true;
		return sliceVersion(slice) > versions[slice.metadata.uid ?? ''];
	}

	/**
	 * StaleSlices: the cache lags behind the controller's writes (a slice
	 * older than written, one expected gone, or one written but not there).
	 * Writes tracked for an earlier Service of the same name are forgotten.
	 */
	staleSlices(service: Service, slices: readonly WireEndpointSlice[]): boolean {
		const s = this.state();
		const key = keyOf(service);
		const uid = service.metadata.uid ?? '';
		const tracked = s.serviceUids[key];
		if (tracked && uid && tracked !== uid) delete s.byService[key];
		s.serviceUids[key] = uid;
		const versions = s.byService[key];
		if (!versions) return false;
		const provided = new Set<string>();
		for (const slice of slices) {
			const sliceUid = slice.metadata.uid ?? '';
			provided.add(sliceUid);
			if (!Object.hasOwn(versions, sliceUid)) continue;
			const v = versions[sliceUid];
			if (v === DELETION_EXPECTED || v > sliceVersion(slice)) return true;
		}
		for (const [sliceUid, v] of Object.entries(versions)) if (v !== DELETION_EXPECTED && !provided.has(sliceUid)) return true;
		return false;
	}

	/** Update: remember the version just written. */
	update(slice: WireEndpointSlice): void {
		const key = serviceKeyOfSlice(slice) ?? keyFor(slice.metadata.namespace, '');
		(this.state().byService[key] ??= {})[slice.metadata.uid ?? ''] = sliceVersion(slice);
	}

	/** ExpectDeletion: the controller deleted this slice. */
	expectDeletion(slice: WireEndpointSlice): void {
		const key = serviceKeyOfSlice(slice) ?? keyFor(slice.metadata.namespace, '');
		(this.state().byService[key] ??= {})[slice.metadata.uid ?? ''] = DELETION_EXPECTED;
	}

	/** HandleDeletion: forget the slice; false when its deletion was not the controller's doing. */
	handleDeletion(slice: WireEndpointSlice): boolean {
		const versions = this.versionsOf(slice);
		if (!versions) return true;
		const uid = slice.metadata.uid ?? '';
		const known = Object.hasOwn(versions, uid);
		const v = versions[uid];
		delete versions[uid];
		return !(known && v !== DELETION_EXPECTED);
	}

	/** DeleteService: forget everything about a Service. */
	deleteService(key: string): void {
		delete this.state().byService[key];
		delete this.state().serviceUids[key];
	}
}
