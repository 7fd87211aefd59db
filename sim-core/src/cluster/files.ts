/**
 * The files kubeadm leaves on each machine: kubeconfigs, the PKI directory,
 * the static pod manifests of the control plane, the kubelet's config. The
 * certificates are placeholders that say so; each client certificate carries
 * its subject (CN = user, O = groups) in readable text, which is how the
 * simulated API server learns who a kubeconfig belongs to, as a real one
 * reads the subject of a TLS client certificate. Each also carries its
 * issuer and validity, dated when the cluster was made (./pki.ts).
 *
 * Mirrors cmd/kubeadm/app/phases/kubeconfig/kubeconfig.go,
 * cmd/kubeadm/app/phases/certs/certs.go,
 * cmd/kubeadm/app/phases/controlplane/manifests.go,
 * cmd/kubeadm/app/phases/kubelet/config.go.
 */
import { encodeBase64 as base64 } from '../golang/base64.ts';
import { parseCertificate, privateKeyPem } from '../host/pem.ts';
import { stringifyYaml } from '../yaml/index.ts';
import { controlPlaneManifests, type ControlPlaneFacts } from './bootstrap/static-pods.ts';
import { CRICTL_CONFIG_PATH, DEFAULT_CRICTL_YAML } from '../tools/crictl/index.ts';
import { systemdNodeFiles } from '../host/systemd/units.ts';
import { binaryPlaceholder } from '../runtime/behaviour/rootfs.ts';
import { KUBEADM_CERTIFICATES, caCertificate, kubeletClientCertificate, signedCertificate, type PkiDates } from '../tools/kubeadm/pki.ts';

const privateKey = privateKeyPem;

/** The identity a certificate placeholder names, if any. */
export function certificateSubject(pem: string): { user: string; groups: string[] } | undefined {
	const fields = parseCertificate(pem);
	return fields ? { user: fields.subject.commonName, groups: fields.subject.organizations } : undefined;
}

/** A kubeconfig as kubeadm writes one: the cluster CA, and the user's client certificate embedded. */
export function kubeconfig(server: string, contextUser: string, caPem: string, certificatePem: string): string {
	return stringifyYaml({
		apiVersion: 'v1',
		clusters: [{ cluster: { 'certificate-authority-data': base64(caPem), server }, name: 'kubernetes' }],
		contexts: [{ context: { cluster: 'kubernetes', user: contextUser }, name: `${contextUser}@kubernetes` }],
		'current-context': `${contextUser}@kubernetes`,
		kind: 'Config',
		preferences: {},
		users: [{ name: contextUser, user: { 'client-certificate-data': base64(certificatePem), 'client-key-data': base64(privateKey()) } }],
	});
}

/** Where systemd-resolved lists the upstream servers it learned (the kubelet's resolvConf on kubeadm nodes). */
export const HOST_UPSTREAM_RESOLV_CONF = '/run/systemd/resolve/resolv.conf';
/** The nodes' upstream DNS server: the LAN's gateway, the reader's workstation, which serves no DNS in this offline lab. */
export const LAN_DNS_SERVER = '192.168.56.1';

interface MachineFacts {
	nodeName: string;
	nodeIp: string;
	apiServerUrl: string;
	controlPlane: boolean;
	controlPlaneFacts?: ControlPlaneFacts;
	/** false: the kubelet's config says registerNode: false (it never creates its Node). */
	registerNode?: boolean;
	/** kubeadm's nodeRegistration.kubeletExtraArgs cloud-provider: external. */
	externalCloudProvider?: boolean;
	/** Extra files (e.g. a KubeSchedulerConfiguration for --config). */
	extra?: Record<string, string>;
	/** When kubeadm issued the certificates, and for how long (./pki.ts). */
	pki: PkiDates;
}

/**
 * The CNI plugins the kubernetes-cni package (a dependency of kubeadm's
 * packages) puts in /opt/cni/bin: containernetworking/plugins' release
 * binaries, with the tarball's LICENSE and README.md. A Pod network add-on
 * brings its own plugin (flannel, calico) and config.
 */
const CNI_PLUGINS_VERSION = 'v1.9.1';
const CNI_PLUGINS = ['bandwidth', 'bridge', 'dhcp', 'dummy', 'firewall', 'host-device', 'host-local', 'ipvlan', 'loopback', 'macvlan', 'portmap', 'ptp', 'sbr', 'static', 'tap', 'tuning', 'vlan', 'vrf'];

function cniPluginFiles(): Record<string, string> {
	const files: Record<string, string> = {
		'/opt/cni/bin/LICENSE': 'Apache License\nVersion 2.0, January 2004\nhttp://www.apache.org/licenses/\n',
		'/opt/cni/bin/README.md': '# Plugins\nSome CNI network plugins, maintained by the containernetworking team.\n',
	};
	for (const name of CNI_PLUGINS) files[`/opt/cni/bin/${name}`] = binaryPlaceholder(name, CNI_PLUGINS_VERSION);
	return files;
}

/** Every file kubeadm leaves on a node, by absolute path. */
export function nodeFiles(f: MachineFacts): Record<string, string> {
	const files: Record<string, string> = {
		'/etc/hostname': `${f.nodeName}\n`,
		'/etc/hosts': `127.0.0.1 localhost\n127.0.1.1 ${f.nodeName}\n${f.nodeIp} ${f.nodeName}\n`,
		// systemd-resolved: programs use its stub on 127.0.0.53; the file it keeps of the real upstream servers is what kubeadm's kubelet hands to Default Pods.
		'/etc/resolv.conf': 'nameserver 127.0.0.53\noptions edns0 trust-ad\nsearch .\n',
		[HOST_UPSTREAM_RESOLV_CONF]: `nameserver ${LAN_DNS_SERVER}\n`,
		'/etc/kubernetes/pki/ca.crt': caCertificate('ca', f.pki),
		'/etc/kubernetes/kubelet.conf': kubeconfig(f.apiServerUrl, `system:node:${f.nodeName}`, caCertificate('ca', f.pki), kubeletClientCertificate(f.nodeName, f.pki.issuedMs)),
		'/var/lib/kubelet/config.yaml': `apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\ncgroupDriver: systemd\nclusterDNS:\n- 10.96.0.10\nclusterDomain: cluster.local\nresolvConf: /run/systemd/resolve/resolv.conf\nstaticPodPath: /etc/kubernetes/manifests\n${f.registerNode === false ? 'registerNode: false\n' : ''}rotateCertificates: true\n`,
		'/var/lib/kubelet/kubeadm-flags.env': `KUBELET_KUBEADM_ARGS="--container-runtime-endpoint=unix:///var/run/containerd/containerd.sock --pod-infra-container-image=registry.k8s.io/pause:3.10.2${f.externalCloudProvider ? ' --cloud-provider=external' : ''}"\n`,
		// The kubelet and containerd units (systemctl cat, the command line in systemctl status) and crictl's endpoint.
		...systemdNodeFiles(),
		[CRICTL_CONFIG_PATH]: DEFAULT_CRICTL_YAML,
		...cniPluginFiles(),
		...(f.extra ?? {}),
	};
	if (!f.controlPlane || !f.controlPlaneFacts) return files;
	const ca = caCertificate('ca', f.pki);
	const contextUsers: Record<string, string> = { 'admin.conf': 'kubernetes-admin', 'super-admin.conf': 'kubernetes-super-admin', 'controller-manager.conf': 'system:kube-controller-manager', 'scheduler.conf': 'system:kube-scheduler' };
	for (const cert of KUBEADM_CERTIFICATES) {
		const pem = signedCertificate(cert.subject(f.nodeName), cert.ca, f.pki.issuedMs, f.pki.certificateValidityMs);
		if (cert.kubeconfig) files[cert.path] = kubeconfig(f.apiServerUrl, contextUsers[cert.name], ca, pem);
		else {
			files[cert.path] = pem;
			files[cert.path.replace(/\.crt$/, '.key')] = privateKey();
		}
	}
	Object.assign(files, {
		'/root/.kube/config': files['/etc/kubernetes/admin.conf'],
		'/etc/kubernetes/pki/ca.key': privateKey(),
		'/etc/kubernetes/pki/front-proxy-ca.crt': caCertificate('front-proxy-ca', f.pki),
		'/etc/kubernetes/pki/front-proxy-ca.key': privateKey(),
		'/etc/kubernetes/pki/sa.key': privateKey(),
		'/etc/kubernetes/pki/sa.pub': '-----BEGIN PUBLIC KEY-----\n# simulated key (Cluster Anatomy)\n-----END PUBLIC KEY-----\n',
		'/etc/kubernetes/pki/etcd/ca.crt': caCertificate('etcd-ca', f.pki),
		'/etc/kubernetes/pki/etcd/ca.key': privateKey(),
	});
	for (const [file, pod] of Object.entries(controlPlaneManifests(f.controlPlaneFacts))) files[`/etc/kubernetes/manifests/${file}`] = stringifyYaml(pod);
	return files;
}

/** The reader's machine: a copy of the control plane's admin.conf as ~/.kube/config, nothing else. */
export function workstationFiles(adminConf: string): Record<string, string> {
	return { '/home/reader/.kube/config': adminConf };
}
