/**
 * How a process reaches the API server: the simulated network between a
 * client and kube-apiserver. The cluster wiring implements it; it knows
 * each process's credentials (authentication happens here, as TLS client
 * certificates and tokens would), whether the API server is up, and whether
 * the caller's node is cut off from the control plane.
 *
 * Mirrors staging/src/k8s.io/client-go/transport/transport.go (TLS client
 * certificates and bearer tokens, which the wiring plays),
 * staging/src/k8s.io/apimachinery/pkg/util/net/http.go (the HTTP/2 health
 * check of a dead connection).
 */
import type { ApiRequest, ApiResponse } from '../api/request.ts';

/** Why a request never got an answer. */
export interface TransportFailure {
	/** 'refused': nothing listens (API server down); 'timeout': no route (partition); 'tls': the handshake failed (a certificate outside its validity). */
	failure: 'refused' | 'timeout' | 'tls';
	/** The address that was dialled, e.g. '192.168.56.10:6443'. */
	address: string;
	message: string;
}

export type TransportResult = ApiResponse | TransportFailure;

export function isTransportFailure(result: TransportResult): result is TransportFailure {
	return (result as TransportFailure).failure !== undefined;
}

export interface ApiTransport {
	/** Sends one request from process `from`. */
	request(from: string, request: ApiRequest): TransportResult;
	/** Closes a watch the caller no longer wants. */
	stopWatch(from: string, watchId: number): void;
}
