/**
 * A Pod volume that names a PersistentVolumeClaim: the kubelet follows the
 * claim to its bound PersistentVolume and mounts that volume's storage.
 * Of the volume sources a PersistentVolume can have, the ones a machine
 * provides by itself are modelled: `hostPath` (a directory of the node,
 * created or checked as a hostPath volume's is) and `local` (a path that
 * must already exist on the node the volume's node affinity names).
 * Network and CSI storage are not: such a volume is set up as an empty
 * directory, and the kubelet's journal says so, as for other unmodelled
 * volume kinds.
 *
 * An unbound claim, or one whose volume is missing, fails the set-up with
 * the populator's words (`error processing PVC default/x: PVC is not
 * bound`); the scheduler does not place such a Pod in the first place.
 *
 * Mirrors pkg/kubelet/volumemanager/populator/desired_state_of_world_populator.go
 * (createVolumeSpec, getPVCExtractPV, getPVSpec),
 * pkg/volume/local/local.go (NewMounter's path check).
 */
import { volumeSourceKind } from '../../component-helpers/storage.ts';
import type { HostPathSource } from './hostpath.ts';
import type { ObjectLookup } from './lookup.ts';

/** What a bound claim resolves to: the volume's name and the source it is mounted from. */
export type ClaimSource =
	| { ok: true; volumeName: string; kind: 'hostPath'; hostPath: HostPathSource; readOnly: boolean }
	| { ok: true; volumeName: string; kind: 'local'; path: string; readOnly: boolean }
	| { ok: true; volumeName: string; kind: 'unsupported'; source: string; readOnly: boolean }
	| { ok: false; error: string };

interface ClaimObject {
	spec?: { volumeName?: string };
	status?: { phase?: string };
	metadata: { uid?: string };
}

interface VolumeObject {
	spec?: { hostPath?: HostPathSource; local?: { path?: string }; claimRef?: { uid?: string } } & Record<string, unknown>;
}

/** getPVCExtractPV and getPVSpec: the claim, bound, then its volume, pointing back at the claim. */
export function resolveClaim(lookup: ObjectLookup, namespace: string, claimName: string, readOnly: boolean): ClaimSource {
	const where = `error processing PVC ${namespace}/${claimName}`;
	const claim = lookup.persistentVolumeClaim(namespace, claimName);
	if (!claim.ok) return { ok: false, error: `${where}: failed to fetch PVC from API server: ${claim.error}` };
	const pvc = claim.object as ClaimObject;
	const volumeName = pvc.spec?.volumeName;
	if (pvc.status?.phase !== 'Bound' || !volumeName) return { ok: false, error: `${where}: PVC is not bound` };
	const volume = lookup.persistentVolume(volumeName);
	if (!volume.ok) return { ok: false, error: `${where}: failed to fetch PV ${volumeName} from API server: ${volume.error}` };
	const spec = (volume.object as VolumeObject).spec ?? {};
	if (spec.claimRef?.uid && spec.claimRef.uid !== pvc.metadata.uid) return { ok: false, error: `${where}: failed to fetch PV ${volumeName} from API server: the PV is bound to a different claim` };
	if (spec.hostPath) return { ok: true, volumeName, kind: 'hostPath', hostPath: spec.hostPath, readOnly };
	if (spec.local) return { ok: true, volumeName, kind: 'local', path: spec.local.path ?? '', readOnly };
	const source = volumeSourceKind(spec) ?? 'unknown';
	return { ok: true, volumeName, kind: 'unsupported', source, readOnly };
}

/** The node path a resolved claim is mounted from, if it has one of its own (else the pod's volume directory). */
export function claimHostPath(source: ClaimSource): string | undefined {
	if (!source.ok) return undefined;
	if (source.kind === 'hostPath') return source.hostPath.path;
	if (source.kind === 'local') return source.path;
	return undefined;
}
