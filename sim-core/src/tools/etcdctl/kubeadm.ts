/**
 * The etcd member kubeadm creates on the first control-plane node: name =
 * node name, peer URL https://<ip>:2380, advertised client URL
 * https://<ip>:2379, listening on 127.0.0.1:2379 too, default cluster token.
 * A convenience for the cluster wiring; every fact can still be given by
 * hand.
 *
 * Mirrors cmd/kubeadm/app/phases/etcd/local.go.
 */
import { clusterId, memberId } from './ids.ts';
import { ETCD_VERSION, type EtcdMemberFacts } from './types.ts';

export function kubeadmEtcdMember(nodeName: string, nodeIp: string, options: { raftTerm?: number; isLeader?: boolean; addedAtWallMs?: number; clusterId?: string } = {}): EtcdMemberFacts {
	const peerUrls = [`https://${nodeIp}:2380`];
	// A member added at run time (kubeadm join's MemberAdd) gets an ID from its peer URLs and the Unix second it was added (membership.NewMember with a time).
	const id = options.addedAtWallMs === undefined ? memberId(peerUrls) : memberId(peerUrls, String(Math.floor(options.addedAtWallMs / 1000)));
	return {
		name: nodeName,
		memberId: id,
		clusterId: options.clusterId ?? clusterId([id]),
		peerUrls,
		clientUrls: [`https://${nodeIp}:2379`],
		listenClientUrls: ['https://127.0.0.1:2379', `https://${nodeIp}:2379`],
		nodeName,
		version: ETCD_VERSION,
		// A fresh single member campaigns once: term 2 (each restart adds one).
		raftTerm: options.raftTerm ?? 2,
		isLeader: options.isLeader ?? true,
	};
}
