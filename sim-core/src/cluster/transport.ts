/**
 * The simulated network between clients and kube-apiserver. It plays the
 * parts of TLS (each process has its identity, as its kubeconfig's
 * certificate would give it; each side checks the other's certificate
 * against its own machine's clock: the client the API server's serving
 * certificate, the server the client's certificate) and of the network (a
 * node cut off from the control plane cannot reach the API server; nothing
 * answers on 6443 while the API server is down; and while the
 * control-plane machine is powered off nothing answers at its address at
 * all).
 *
 * A component loads its client certificate when it starts: renewing the
 * file changes nothing until the process restarts, which is why `kubeadm
 * certs renew` asks for the control plane to be restarted. The API server
 * reloads its serving certificate from disk (DynamicServingCertificate).
 *
 * Mirrors nothing upstream: the simulated network between clients and
 * kube-apiserver, in place of TLS and TCP.
 */
import type { ApiRequest } from '../api/request.ts';
import type { Caller, KubeApiServer } from '../apiserver/apiserver.ts';
import type { ApiTransport, TransportFailure, TransportResult } from '../client/transport.ts';
import type { UserInfo } from '../api/request.ts';
import type { Kernel } from '../sim/kernel.ts';
import { parseCertificate, x509ValidityError, type CertificateFields } from '../host/pem.ts';

/** Where a process's client certificate comes from: a file it reads when `process` (re)starts. */
export interface CertificateSource {
	/** The kernel process whose start loads it (a controller's identity belongs to kube-controller-manager). */
	process: string;
	read(): string | undefined;
}

/** The certificates processes loaded, by process id: part of the cluster's snapshot. */
export type LoadedCertificates = Record<string, { incarnation: number; notBefore?: number; notAfter?: number }>;

export class ClusterTransport implements ApiTransport {
	/** process id -> identity. */
	private readonly identities = new Map<string, UserInfo>();
	/** process id -> node it runs on (for partitions). */
	private readonly placement = new Map<string, string>();
	/** process id -> the bearer token its kubeconfig holds (`token:`), sent as `Authorization: Bearer`. */
	private readonly tokens = new Map<string, string>();
	/** process id -> why the API server's TLS check refuses the client certificate it presents (an expired one). */
	private readonly badCertificates = new Map<string, string>();

	/** process id -> the file its client certificate is loaded from at each start. */
	private readonly certificateSources = new Map<string, CertificateSource>();
	/** process id -> the client certificate's validity as loaded at the process's current start. */
	private readonly loaded: LoadedCertificates;
	/** The serving certificate last read, by the file's text (read again when the file changes). */
	private serving: { pem: string; fields: CertificateFields | undefined } | undefined;

	constructor(
		private readonly kernel: Kernel,
		private readonly apiServer: () => KubeApiServer | undefined,
		/** The API server's address as clients dial it. */
		readonly address: string,
		/** Nodes currently cut off from the control plane. */
		private readonly isPartitioned: (node: string) => boolean,
		/** Whether the API server's machine is powered off. */
		private readonly isServerMachineDown: () => boolean = () => false,
		/** The API server's machine (whose clock judges client certificates) and its serving certificate file. */
		private readonly server: { machine?: string; servingCertificate?: () => string | undefined } = {},
		restore?: LoadedCertificates,
	) {
		this.loaded = restore ? { ...restore } : {};
	}

	/** The machine the API server runs on: its clock judges client certificates. */
	get serverMachine(): string | undefined {
		return this.server.machine;
	}

	/** The certificates loaded so far (for the snapshot). */
	snapshot(): LoadedCertificates {
		return { ...this.loaded };
	}

	/**
	 * The process presents the client certificate `source` reads, loaded
	 * again each time its process (re)starts. The API server refuses it
	 * (401) while its own clock is outside the certificate's validity.
	 */
	presentCertificateFrom(processId: string, source: CertificateSource): void {
		this.certificateSources.set(processId, source);
	}

	/**
	 * Why a certificate a process loaded at its start fails verification by
	 * `machine`'s clock now (Go's x509 text), or undefined: for connections
	 * this transport does not carry (the API server's to etcd).
	 */
	loadedCertificateError(processId: string, machine: string | undefined): string | undefined {
		const certificate = this.clientCertificate(processId);
		return certificate && x509ValidityError(certificate, this.kernel.wallMsOn(machine));
	}

	/** The client certificate a process presents now: the one its current start loaded. */
	private clientCertificate(processId: string): { notBefore?: number; notAfter?: number } | undefined {
		const source = this.certificateSources.get(processId);
		if (!source) return undefined;
		const incarnation = this.kernel.incarnation(source.process);
		let entry = this.loaded[processId];
		if (!entry || entry.incarnation !== incarnation) {
			const pem = source.read();
			const fields = pem === undefined ? undefined : parseCertificate(pem);
			entry = { incarnation, ...(fields?.notBefore === undefined ? {} : { notBefore: fields.notBefore }), ...(fields?.notAfter === undefined ? {} : { notAfter: fields.notAfter }) };
			this.loaded[processId] = entry;
		}
		return entry;
	}

	/** The API server's serving certificate as it serves it now (re-read when the file changes). */
	private servingCertificate(): CertificateFields | undefined {
		const pem = this.server.servingCertificate?.();
		if (pem === undefined) return undefined;
		if (this.serving?.pem !== pem) this.serving = { pem, fields: parseCertificate(pem) };
		return this.serving.fields;
	}

	/** Where a process runs (undefined: the reader's workstation), e.g. a kubectl that moved between machines. */
	place(processId: string, node: string | undefined): void {
		if (node) this.placement.set(processId, node);
		else this.placement.delete(processId);
	}

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
		// A process reads its certificate when it starts, whether or not its first connection succeeds.
		this.clientCertificate(from);
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
		// The TLS handshake: the client checks the serving certificate against its own machine's clock.
		const serving = this.servingCertificate();
		const invalid = serving && x509ValidityError(serving, this.kernel.wallMsOn(node));
		if (invalid) return { failure: 'tls', address: this.address, message: `tls: failed to verify certificate: ${invalid}` };
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
		// The server checks the client certificate against its own clock.
		const certificate = this.clientCertificate(from);
		const expired = certificate && x509ValidityError(certificate, this.kernel.wallMsOn(this.server.machine));
		if (expired) caller.certificateError = expired;
		return server.serve(request, caller);
	}

	stopWatch(from: string, watchId: number): void {
		void from;
		this.apiServer()?.stopWatch(watchId);
	}
}
