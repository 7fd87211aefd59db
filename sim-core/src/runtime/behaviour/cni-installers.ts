/**
 * The installers a Pod network add-on runs in its DaemonSet's init
 * containers, which put the CNI configuration and plugin binaries on the
 * node through hostPath mounts:
 * - flannel's `/opt/bin/install-conf SRC DEST` (kube-flannel.yml's
 *   install-cni container): copies the ConfigMap's cni-conf.json to
 *   /etc/cni/net.d/10-flannel.conflist, atomically (a temporary file, then
 *   a rename), or says `error installing "SRC": ...` and exits 1;
 * - Calico's `/opt/cni/bin/install` (calico.yaml's install-cni container):
 *   copies its `calico` and `calico-ipam` binaries to /host/opt/cni/bin,
 *   writes the network config from CNI_NETWORK_CONFIG with its
 *   placeholders filled in to /host/etc/cni/net.d/$CNI_CONF_NAME, and the
 *   kubeconfig the plugin talks to the API server with;
 * - Calico's `calico-ipam -upgrade` and `calico-node -init`, which have
 *   nothing to do on a fresh cluster and exit 0.
 * The files go out as the outcome's `files`; the interpreter writes them
 * into the container, and the mounts carry them to the node.
 *
 * Mirrors flannel-io/flannel cmd/install_conf/main.go,
 * projectcalico/calico cni-plugin/pkg/install/install.go.
 */
import type { CatalogImage } from '../images.ts';
import type { CommandOutcome, ContainerContext, FileOverrides, OutputLine } from '../behaviour.ts';
import { formatRfc3339Micro } from '../../golang/time.ts';
import { readFile } from './rootfs.ts';
import { envValue } from './userland.ts';

/** Runs `argv` if it is an add-on's installer; undefined if it is another program. */
export function runCniInstaller(image: CatalogImage, ctx: ContainerContext, files: FileOverrides, argv: string[], wallMs: number, out: OutputLine[]): CommandOutcome | undefined {
	const binary = argv[0] ?? '';
	const base = binary.slice(binary.lastIndexOf('/') + 1);
	const args = argv.slice(1);
	if (image.program === 'flanneld' && base === 'install-conf') return installConf(image, ctx, files, binary, args, out);
	if (image.program === 'calico-cni' && base === 'install') return calicoInstall(image, ctx, files, wallMs, out);
	if (image.program === 'calico-cni' && base === 'calico-ipam' && args.includes('-upgrade')) return { kind: 'done', status: 0, out };
	if (image.program === 'calico-node' && base === 'calico-node' && args.includes('-init')) return { kind: 'done', status: 0, out };
	return undefined;
}

function installConf(image: CatalogImage, ctx: ContainerContext, files: FileOverrides, binary: string, args: string[], out: OutputLine[]): CommandOutcome {
	if (args.length !== 2) {
		out.push({ stream: 'stderr', text: `usage: ${binary} <src> <dest>` });
		return { kind: 'done', status: 1, out };
	}
	const [src, dest] = args;
	const content = readFile(image, ctx, files, src);
	if (content === undefined) {
		// CopyFileAtomic's os.Open error.
		out.push({ stream: 'stderr', text: `error installing "${src}": open ${src}: no such file or directory` });
		return { kind: 'done', status: 1, out };
	}
	return { kind: 'done', status: 0, out, files: { [dest]: content } };
}

/** Where Calico's installer writes on the host (the manifest mounts the node's directories under /host). */
const HOST_BIN = '/host/opt/cni/bin';
const HOST_NET_D = '/host/etc/cni/net.d';

function calicoInstall(image: CatalogImage, ctx: ContainerContext, files: FileOverrides, wallMs: number, out: OutputLine[]): CommandOutcome {
	const env = (name: string) => envValue(ctx, name);
	// Calico's logrus format: `2026-11-30 08:00:00.000 [INFO][1] cni-installer/install.go: <message>`.
	const stamp = formatRfc3339Micro(wallMs).replace('T', ' ').slice(0, 23);
	const log = (text: string) => out.push({ stream: 'stdout', text: `${stamp} [INFO][1] cni-installer/install.go: ${text}` });
	const written: Record<string, string> = {};
	log('Running as a Kubernetes pod');
	for (const name of ['calico', 'calico-ipam']) {
		const content = readFile(image, ctx, files, `/opt/cni/bin/${name}`);
		if (content === undefined) continue;
		written[`${HOST_BIN}/${name}`] = content;
		log(`Installed ${HOST_BIN}/${name}`);
	}
	log('Wrote Calico CNI binaries to /host/opt/cni/bin');
	const kubeconfigPath = '/etc/cni/net.d/calico-kubeconfig';
	written[`${HOST_NET_D}/calico-kubeconfig`] = [
		'# Kubeconfig file for Calico CNI plugin. Installed by calico/node.',
		'apiVersion: v1',
		'kind: Config',
		'clusters:',
		'- name: local',
		'  cluster:',
		`    server: https://${env('KUBERNETES_SERVICE_HOST') ?? '10.96.0.1'}:${env('KUBERNETES_SERVICE_PORT') ?? '443'}`,
		'    certificate-authority-data: "<simulated>"',
		'users:',
		'- name: calico',
		'  user:',
		'    token: <simulated>',
		'contexts:',
		'- name: calico-context',
		'  context:',
		'    cluster: local',
		'    user: calico',
		'current-context: calico-context',
		'',
	].join('\n');
	const template = env('CNI_NETWORK_CONFIG');
	const confName = env('CNI_CONF_NAME') ?? '10-calico.conflist';
	if (template) {
		const conf = template
			.replaceAll('__KUBERNETES_NODE_NAME__', env('KUBERNETES_NODE_NAME') ?? ctx.nodeName)
			.replaceAll('__CNI_MTU__', env('CNI_MTU') ?? '1500')
			.replaceAll('__KUBECONFIG_FILEPATH__', kubeconfigPath);
		written[`${HOST_NET_D}/${confName}`] = conf.endsWith('\n') ? conf : `${conf}\n`;
		log(`Created /host/etc/cni/net.d/${confName}`);
	}
	log(`Done configuring CNI.  Sleep= ${env('SLEEP') ?? 'true'}`);
	return { kind: 'done', status: 0, out, files: written };
}
