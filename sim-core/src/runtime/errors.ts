/**
 * The errors the CRI runtime returns, worded as containerd 2.x returns them
 * through gRPC and as the kubelet prints them. A gRPC status error reads
 * `rpc error: code = <Code> desc = <message>`; errors containerd does not
 * classify travel as code Unknown, which recent kubelets print as the bare
 * message (observed: `Failed to pull image "nginxx": failed to pull and
 * unpack image ...` without the prefix, while NotFound keeps it).
 *
 * Mirrors grpc/grpc-go internal/status/status.go (rpc error: code = ... desc
 * = ...), staging/src/k8s.io/cri-client/pkg/remote_runtime.go,
 * staging/src/k8s.io/cri-client/pkg/remote_image.go, containerd/containerd
 * internal/cri/server/images/image_pull.go, containerd/containerd
 * core/remotes/docker/resolver.go.
 */

export { criErrorMessage, criErrorText, type CriError, type GrpcCode } from '../cri-api/cri.ts';
import type { CriError } from '../cri-api/cri.ts';

/** The CRI socket kubeadm configures (`--container-runtime-endpoint`). */
export const CONTAINERD_SOCKET = '/var/run/containerd/containerd.sock';

/** containerd is not running: every CRI call fails to dial its socket. */
export function runtimeDown(): CriError {
	return {
		code: 'Unavailable',
		desc: `connection error: desc = "transport: Error while dialing: dial unix ${CONTAINERD_SOCKET}: connect: connection refused"`,
	};
}

/** containerd went away during a call (the stream broke). */
export function runtimeWentAway(): CriError {
	return { code: 'Unavailable', desc: 'error reading from server: EOF' };
}

/**
 * `... failed to resolve reference "<ref>": <ref>: not found`: every host
 * containerd tried (here the one mirror) answered 404 for the manifest, the
 * same for a tag that does not exist as for a repository the mirror does not
 * carry (core/remotes/docker/resolver.go: "trying next host - response was
 * http.StatusNotFound", then errdefs.ErrNotFound).
 */
export function manifestNotFound(ref: string): CriError {
	return { code: 'NotFound', desc: `failed to pull and unpack image "${ref}": failed to resolve reference "${ref}": ${ref}: not found` };
}

/** A registry whose name does not resolve. */
export function noSuchHost(ref: string, domain: string, repositoryPath: string, reference: string): CriError {
	return {
		code: 'Unknown',
		desc: `failed to pull and unpack image "${ref}": failed to resolve reference "${ref}": failed to do request: Head "https://${domain}/v2/${repositoryPath}/manifests/${reference}": dial tcp: lookup ${domain} on 127.0.0.53:53: no such host`,
	};
}

/** runc could not exec the container's command (containerd 2.x with runc 1.2+ wording). */
export function execNotFound(binary: string): CriError {
	return {
		code: 'Unknown',
		desc: `failed to create containerd task: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: error during container init: exec: "${binary}": executable file not found in $PATH: unknown`,
	};
}

/** `kubectl exec` of a binary the image does not have. */
export function execSyncNotFound(execId: string, binary: string): CriError {
	return {
		code: 'Unknown',
		desc: `failed to exec in container: failed to start exec "${execId}": OCI runtime exec failed: exec failed: unable to start container process: exec: "${binary}": executable file not found in $PATH: unknown`,
	};
}

export function containerNotFound(id: string): CriError {
	return { code: 'NotFound', desc: `an error occurred when try to find container "${id}": not found` };
}

export function sandboxNotFound(id: string): CriError {
	return { code: 'NotFound', desc: `an error occurred when try to find sandbox "${id}": not found` };
}

export function imageNotFound(ref: string): CriError {
	return { code: 'NotFound', desc: `failed to get image "${ref}": not found` };
}

export function containerNotRunning(id: string, state: string): CriError {
	return { code: 'FailedPrecondition', desc: `container ${id} is not running: ${state}` };
}
