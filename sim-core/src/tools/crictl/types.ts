/**
 * What `crictl` needs from the node it runs on, passed in by the cluster
 * wiring: the node's CRI endpoint (the RuntimeService and ImageService of
 * ../../cri-api/cri.ts, all crictl reaches over the socket) and the process
 * that receives the completion of an image pull. The shell gives the rest: the node's files (/etc/crictl.yaml)
 * and the virtual clock (`ctx.shell.clock`, `ctx.shell.onSleep`).
 *
 * Version numbers and paths of the crictl the nodes run:
 * kubernetes-sigs/cri-tools v1.36.0 (the release that matches Kubernetes
 * v1.36), installed by the `cri-tools` package of pkgs.k8s.io as
 * /usr/bin/crictl.
 *
 * Mirrors nothing upstream: what the cluster wiring hands crictl (the node's
 * CRI endpoint and the pull's receiver).
 */
import type { ImageService, RuntimeService } from '../../cri-api/cri.ts';

/** The CRI endpoint crictl talks to (k8s.io/cri-api RuntimeService and ImageService), as the node's containerd serves it. */
export type CrictlRuntime = RuntimeService & ImageService;

/** The outcome of one pull, as the runtime reported it to the pull sink. */
export type PullOutcome = { ok: true; imageRef: string } | { ok: false; code: string; desc: string };

/** Where the runtime sends the completion of a pull crictl started (see pull-sink.ts). */
export interface PullReceiver {
	/** The process id the runtime addresses the completion to. */
	readonly id: string;
	/** Forgets an earlier outcome with this id (called when a pull starts). */
	forget(opId: number): void;
	/** The outcome of pull `opId`, once it arrived. */
	outcome(opId: number): PullOutcome | undefined;
}

/** The dependencies of `crictl` on one node. */
export interface CrictlDeps {
	/** containerd on this node. */
	runtime: CrictlRuntime;
	/** Receives pull completions; without it `crictl pull` says it cannot wait. */
	pulls?: PullReceiver;
}

/** `crictl --version` (cri-tools Makefile: VERSION from `git describe --tags`). */
export const CRICTL_VERSION = 'v1.36.0';

/** Where the cri-tools package installs the binary: the fallback config is looked up beside it (main.go os.Executable). */
export const CRICTL_BINARY = '/usr/bin/crictl';

/** main_unix.go defaultConfigPath. */
export const CRICTL_CONFIG_PATH = '/etc/crictl.yaml';

/** main_unix.go defaultRuntimeEndpoints, tried in order when no endpoint is configured. */
export const DEFAULT_RUNTIME_ENDPOINTS = ['unix:///run/containerd/containerd.sock', 'unix:///run/crio/crio.sock', 'unix:///var/run/cri-dockerd.sock'] as const;

/** The sockets containerd listens on (/var/run is a symlink to /run on Ubuntu). */
export const CONTAINERD_SOCKETS = ['/run/containerd/containerd.sock', '/var/run/containerd/containerd.sock'] as const;

/**
 * The /etc/crictl.yaml the nodes carry: what `crictl config --set
 * runtime-endpoint=unix:///run/containerd/containerd.sock --set
 * image-endpoint=unix:///run/containerd/containerd.sock --set timeout=2`
 * writes (common/file.go WriteConfig: every option, in this order), the
 * set-up the Kubernetes docs' "Debugging Kubernetes nodes with crictl"
 * page asks for. kubeadm itself writes no crictl.yaml.
 */
export const DEFAULT_CRICTL_YAML =
	'runtime-endpoint: unix:///run/containerd/containerd.sock\n' +
	'image-endpoint: unix:///run/containerd/containerd.sock\n' +
	// crictl's own default connection timeout, 2s (main.go defaultTimeout).
	'timeout: 2\n' +
	'debug: false\n' +
	'pull-image-on-create: false\n' +
	'disable-pull-on-run: false\n';
