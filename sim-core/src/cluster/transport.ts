/**
 * The simulated network between clients and kube-apiserver. It plays the
 * parts of TLS client authentication (each process has its identity, as its
 * kubeconfig's certificate would give it) and of the network (a node cut
 * off from the control plane cannot reach the API server; nothing answers
 * on 6443 while the API server is down; and while the control-plane
 * machine is powered off nothing answers at its address at all).
 *
 * Mirrors nothing upstream: the simulated network between clients and
 * kube-apiserver, in place of TLS and TCP.
 */
import type { ApiRequest } from '../api/request.ts';
import type { Caller, KubeApiServer } from '../apiserver/apiserver.ts';
import type { ApiTransport, TransportFailure, TransportResult } from '../client/transport.ts';
import type { UserInfo } from '../api/request.ts';
import type { Kernel } from '../sim/kernel.ts';

export class ClusterTransport implements ApiTransport {
	/** process id -> identity. */
	private readonly identities = new Map<string, UserInfo>();
	/** process id -> node it runs on (for partitions). */
	private readonly placement = new Map<string, string>();
	/** process id -> the bearer token its kubeconfig holds (`token:`), sent as `Authorization: Bearer`. */
	private readonly tokens = new Map<string, string>();
	/** process id -> why the API server's TLS check refuses the client certificate it presents (an expired one). */
	private readonly badCertificates = new Map<string, string>();

	constructor(
		private readonly kernel: Kernel,
		private readonly apiServer: () => KubeApiServer | undefined,
		/** The API server's address as clients dial it. */
		readonly address: string,
		/** Nodes currently cut off from the control plane. */
		private readonly isPartitioned: (node: string) => boolean,
		/** Whether the API server's machine is powered off. */
		private readonly isServerMachineDown: () => boolean = () => false,
	) {}

	/** Gives a process its identity and says where it runs. */
	enroll(processId: string, user: UserInfo, node?: string): void {
		this.identities.set(processId, user);
		if (node) this.placement.set(processId, node);
	}

	/** Removes a process's identity (its requests become anonymous). */
	forget(processId: string): void {
		this.identities.delete(processId);
		this.tokens.delete(processId);
		this.badCertificates.delete(processId);
	}

	/** The process presents a client certificate the server will refuse (x509 verification fails): every request is a 401. */
	presentRejectedCertificate(processId: string, reason: string, node?: string): void {
		this.forget(processId);
		this.badCertificates.set(processId, reason);
		if (node) this.placement.set(processId, node);
	}

	/**
	 * Gives a process a bearer token (or takes it away). The API server
	 * authenticates it on every request, unless a client certificate (an
	 * enrolled identity) already did.
	 */
	setBearerToken(processId: string, token: string | undefined, node?: string): void {
		if (token === undefined) this.tokens.delete(processId);
		else this.tokens.set(processId, token);
		if (node) this.placement.set(processId, node);
	}

	identity(processId: string): UserInfo | undefined {
		return this.identities.get(processId);
	}

	nodeOf(processId: string): string | undefined {
		return this.placement.get(processId);
	}

	/** Whether `from` can open a connection to the API server now; the failure if not. */
	dial(from: string): TransportFailure | undefined {
		const node = this.placement.get(from);
		if (node && this.isPartitioned(node)) {
			return { failure: 'timeout', address: this.address, message: `dial tcp ${this.address}: i/o timeout` };
		}
		if (this.isServerMachineDown()) {
			// The machines share one L2 network (192.168.56.0/24): a powered-off host answers no ARP request,
			// so the kernel gives up after three unanswered probes and connect() fails with EHOSTUNREACH.
			return { failure: 'timeout', address: this.address, message: `dial tcp ${this.address}: connect: no route to host` };
		}
		const server = this.apiServer();
		if (!server || !this.kernel.isRunning(server.id)) {
			return { failure: 'refused', address: this.address, message: `dial tcp ${this.address}: connect: connection refused` };
		}
		return undefined;
	}

	request(from: string, request: ApiRequest): TransportResult {
		const failure = this.dial(from);
		if (failure) return failure;
		const server = this.apiServer()!;
		const user = this.identities.get(from) ?? { username: 'system:anonymous', groups: ['system:unauthenticated'] };
		const caller: Caller = { process: from, user };
		const token = this.tokens.get(from);
		if (token !== undefined) caller.bearerToken = token;
		const rejected = this.badCertificates.get(from);
		if (rejected !== undefined) caller.certificateError = rejected;
		return server.serve(request, caller);
	}

	stopWatch(from: string, watchId: number): void {
		void from;
		this.apiServer()?.stopWatch(watchId);
	}
}
