/**
 * The control plane as kubeadm writes it: one static Pod manifest per
 * component in /etc/kubernetes/manifests on the control-plane node, which
 * the kubelet runs without any API server (it starts the API server, after
 * all). The flags are the ones `kubeadm init` v1.36 sets; the manifests are
 * built here, not copied.
 *
 * Mirrors cmd/kubeadm/app/phases/controlplane/manifests.go,
 * cmd/kubeadm/app/phases/etcd/local.go.
 */
import type { Pod } from '../../api/types.ts';
import { ETCD_IMAGE, controlPlaneImage } from './versions.ts';

export interface ControlPlaneFacts {
	nodeName: string;
	nodeIp: string;
	serviceCidr: string;
	podCidr: string;
	/** Extra flags for kube-scheduler (e.g. a --config file for a custom KubeSchedulerConfiguration). */
	schedulerFlags?: string[];
	/** The components this machine runs (default: all four); a machine holding only standby replicas has no etcd or API server. */
	components?: readonly string[];
	/**
	 * A member joining a stacked etcd cluster (kubeadm join --control-plane):
	 * the members so far and this one, `name=https://ip:2380` each; it
	 * starts with --initial-cluster-state=existing.
	 */
	etcdInitialCluster?: string[];
}

const PKI = '/etc/kubernetes/pki';

function hostPath(name: string, path: string, type: string) {
	return { name, hostPath: { path, type } };
}

function httpProbe(host: string, path: string, port: number, scheme: 'HTTP' | 'HTTPS', extra: Record<string, number>) {
	return { httpGet: { host, path, port, scheme }, ...extra };
}

/** The common shape of a control-plane static pod. */
function staticPod(name: string, container: Record<string, unknown>, volumes: Array<Record<string, unknown>>, annotations?: Record<string, string>): Pod {
	return {
		apiVersion: 'v1',
		kind: 'Pod',
		metadata: {
			...(annotations ? { annotations } : {}),
			labels: { component: name, tier: 'control-plane' },
			name,
			namespace: 'kube-system',
		},
		spec: {
			containers: [{ name, imagePullPolicy: 'IfNotPresent', ...container } as Pod['spec']['containers'][number]],
			hostNetwork: true,
			priority: 2000001000,
			priorityClassName: 'system-node-critical',
			securityContext: { seccompProfile: { type: 'RuntimeDefault' } },
			volumes: volumes as Pod['spec']['volumes'],
		},
		status: {},
	};
}

const CA_MOUNTS = [
	{ mountPath: '/etc/ssl/certs', name: 'ca-certs', readOnly: true },
	{ mountPath: '/etc/ca-certificates', name: 'etc-ca-certificates', readOnly: true },
];
const CA_VOLUMES = [hostPath('ca-certs', '/etc/ssl/certs', 'DirectoryOrCreate'), hostPath('etc-ca-certificates', '/etc/ca-certificates', 'DirectoryOrCreate')];

function etcdManifest(f: ControlPlaneFacts): Pod {
	const ip = f.nodeIp;
	return staticPod(
		'etcd',
		{
			command: [
				'etcd',
				`--advertise-client-urls=https://${ip}:2379`,
				`--cert-file=${PKI}/etcd/server.crt`,
				'--client-cert-auth=true',
				'--data-dir=/var/lib/etcd',
				'--feature-gates=InitialCorruptCheck=true',
				`--initial-advertise-peer-urls=https://${ip}:2380`,
				`--initial-cluster=${(f.etcdInitialCluster ?? [`${f.nodeName}=https://${ip}:2380`]).join(',')}`,
				...(f.etcdInitialCluster ? ['--initial-cluster-state=existing'] : []),
				`--key-file=${PKI}/etcd/server.key`,
				`--listen-client-urls=https://127.0.0.1:2379,https://${ip}:2379`,
				'--listen-metrics-urls=http://127.0.0.1:2381',
				`--listen-peer-urls=https://${ip}:2380`,
				`--name=${f.nodeName}`,
				`--peer-cert-file=${PKI}/etcd/peer.crt`,
				'--peer-client-cert-auth=true',
				`--peer-key-file=${PKI}/etcd/peer.key`,
				`--peer-trusted-ca-file=${PKI}/etcd/ca.crt`,
				'--snapshot-count=10000',
				`--trusted-ca-file=${PKI}/etcd/ca.crt`,
				'--watch-progress-notify-interval=5s',
			],
			image: ETCD_IMAGE,
			livenessProbe: httpProbe('127.0.0.1', '/livez', 2381, 'HTTP', { failureThreshold: 8, initialDelaySeconds: 10, periodSeconds: 10, timeoutSeconds: 15 }),
			name: 'etcd',
			readinessProbe: httpProbe('127.0.0.1', '/readyz', 2381, 'HTTP', { failureThreshold: 3, periodSeconds: 1, timeoutSeconds: 15 }),
			resources: { requests: { cpu: '100m', memory: '100Mi' } },
			startupProbe: httpProbe('127.0.0.1', '/readyz', 2381, 'HTTP', { failureThreshold: 24, initialDelaySeconds: 10, periodSeconds: 10, timeoutSeconds: 15 }),
			volumeMounts: [
				{ mountPath: '/var/lib/etcd', name: 'etcd-data' },
				{ mountPath: `${PKI}/etcd`, name: 'etcd-certs' },
			],
		},
		[hostPath('etcd-certs', `${PKI}/etcd`, 'DirectoryOrCreate'), hostPath('etcd-data', '/var/lib/etcd', 'DirectoryOrCreate')],
		{ 'kubeadm.kubernetes.io/etcd.advertise-client-urls': `https://${ip}:2379` },
	);
}

function apiServerManifest(f: ControlPlaneFacts): Pod {
	const ip = f.nodeIp;
	return staticPod(
		'kube-apiserver',
		{
			command: [
				'kube-apiserver',
				`--advertise-address=${ip}`,
				'--allow-privileged=true',
				'--authorization-mode=Node,RBAC',
				`--client-ca-file=${PKI}/ca.crt`,
				'--enable-admission-plugins=NodeRestriction',
				'--enable-bootstrap-token-auth=true',
				`--etcd-cafile=${PKI}/etcd/ca.crt`,
				`--etcd-certfile=${PKI}/apiserver-etcd-client.crt`,
				`--etcd-keyfile=${PKI}/apiserver-etcd-client.key`,
				'--etcd-servers=https://127.0.0.1:2379',
				`--kubelet-client-certificate=${PKI}/apiserver-kubelet-client.crt`,
				`--kubelet-client-key=${PKI}/apiserver-kubelet-client.key`,
				'--kubelet-preferred-address-types=InternalIP,ExternalIP,Hostname',
				`--proxy-client-cert-file=${PKI}/front-proxy-client.crt`,
				`--proxy-client-key-file=${PKI}/front-proxy-client.key`,
				'--requestheader-allowed-names=front-proxy-client',
				`--requestheader-client-ca-file=${PKI}/front-proxy-ca.crt`,
				'--requestheader-extra-headers-prefix=X-Remote-Extra-',
				'--requestheader-group-headers=X-Remote-Group',
				'--requestheader-username-headers=X-Remote-User',
				'--secure-port=6443',
				'--service-account-issuer=https://kubernetes.default.svc.cluster.local',
				`--service-account-key-file=${PKI}/sa.pub`,
				`--service-account-signing-key-file=${PKI}/sa.key`,
				`--service-cluster-ip-range=${f.serviceCidr}`,
				`--tls-cert-file=${PKI}/apiserver.crt`,
				`--tls-private-key-file=${PKI}/apiserver.key`,
			],
			image: controlPlaneImage('kube-apiserver'),
			livenessProbe: httpProbe(ip, '/livez', 6443, 'HTTPS', { failureThreshold: 8, initialDelaySeconds: 10, periodSeconds: 10, timeoutSeconds: 15 }),
			name: 'kube-apiserver',
			readinessProbe: httpProbe(ip, '/readyz', 6443, 'HTTPS', { failureThreshold: 3, periodSeconds: 1, timeoutSeconds: 15 }),
			resources: { requests: { cpu: '250m' } },
			startupProbe: httpProbe(ip, '/livez', 6443, 'HTTPS', { failureThreshold: 24, initialDelaySeconds: 10, periodSeconds: 10, timeoutSeconds: 15 }),
			volumeMounts: [...CA_MOUNTS, { mountPath: PKI, name: 'k8s-certs', readOnly: true }],
		},
		[...CA_VOLUMES, hostPath('k8s-certs', PKI, 'DirectoryOrCreate')],
		{ 'kubeadm.kubernetes.io/kube-apiserver.advertise-address.endpoint': `${ip}:6443` },
	);
}

function controllerManagerManifest(f: ControlPlaneFacts): Pod {
	const conf = '/etc/kubernetes/controller-manager.conf';
	return staticPod(
		'kube-controller-manager',
		{
			command: [
				'kube-controller-manager',
				'--allocate-node-cidrs=true',
				`--authentication-kubeconfig=${conf}`,
				`--authorization-kubeconfig=${conf}`,
				'--bind-address=127.0.0.1',
				`--client-ca-file=${PKI}/ca.crt`,
				`--cluster-cidr=${f.podCidr}`,
				'--cluster-name=kubernetes',
				`--cluster-signing-cert-file=${PKI}/ca.crt`,
				`--cluster-signing-key-file=${PKI}/ca.key`,
				'--controllers=*,bootstrapsigner,tokencleaner',
				`--kubeconfig=${conf}`,
				'--leader-elect=true',
				`--requestheader-client-ca-file=${PKI}/front-proxy-ca.crt`,
				`--root-ca-file=${PKI}/ca.crt`,
				`--service-account-private-key-file=${PKI}/sa.key`,
				`--service-cluster-ip-range=${f.serviceCidr}`,
				'--use-service-account-credentials=true',
			],
			image: controlPlaneImage('kube-controller-manager'),
			livenessProbe: httpProbe('127.0.0.1', '/healthz', 10257, 'HTTPS', { failureThreshold: 8, initialDelaySeconds: 10, periodSeconds: 10, timeoutSeconds: 15 }),
			name: 'kube-controller-manager',
			resources: { requests: { cpu: '200m' } },
			startupProbe: httpProbe('127.0.0.1', '/healthz', 10257, 'HTTPS', { failureThreshold: 24, initialDelaySeconds: 10, periodSeconds: 10, timeoutSeconds: 15 }),
			volumeMounts: [
				...CA_MOUNTS,
				{ mountPath: '/usr/libexec/kubernetes/kubelet-plugins/volume/exec', name: 'flexvolume-dir' },
				{ mountPath: PKI, name: 'k8s-certs', readOnly: true },
				{ mountPath: conf, name: 'kubeconfig', readOnly: true },
			],
		},
		[
			...CA_VOLUMES,
			hostPath('flexvolume-dir', '/usr/libexec/kubernetes/kubelet-plugins/volume/exec', 'DirectoryOrCreate'),
			hostPath('k8s-certs', PKI, 'DirectoryOrCreate'),
			hostPath('kubeconfig', conf, 'FileOrCreate'),
		],
	);
}

function schedulerManifest(f: ControlPlaneFacts): Pod {
	const conf = '/etc/kubernetes/scheduler.conf';
	return staticPod(
		'kube-scheduler',
		{
			command: ['kube-scheduler', `--authentication-kubeconfig=${conf}`, `--authorization-kubeconfig=${conf}`, '--bind-address=127.0.0.1', `--kubeconfig=${conf}`, '--leader-elect=true', ...(f.schedulerFlags ?? [])],
			image: controlPlaneImage('kube-scheduler'),
			livenessProbe: httpProbe('127.0.0.1', '/livez', 10259, 'HTTPS', { failureThreshold: 8, initialDelaySeconds: 10, periodSeconds: 10, timeoutSeconds: 15 }),
			name: 'kube-scheduler',
			readinessProbe: httpProbe('127.0.0.1', '/readyz', 10259, 'HTTPS', { failureThreshold: 3, periodSeconds: 1, timeoutSeconds: 15 }),
			resources: { requests: { cpu: '100m' } },
			startupProbe: httpProbe('127.0.0.1', '/livez', 10259, 'HTTPS', { failureThreshold: 24, initialDelaySeconds: 10, periodSeconds: 10, timeoutSeconds: 15 }),
			volumeMounts: [{ mountPath: conf, name: 'kubeconfig', readOnly: true }],
		},
		[hostPath('kubeconfig', conf, 'FileOrCreate')],
	);
}

/** The four manifests, by file name, in the order kubeadm writes them. */
export function controlPlaneManifests(f: ControlPlaneFacts): Record<string, Pod> {
	const all: Record<string, () => Pod> = {
		etcd: () => etcdManifest(f),
		'kube-apiserver': () => apiServerManifest(f),
		'kube-controller-manager': () => controllerManagerManifest(f),
		'kube-scheduler': () => schedulerManifest(f),
	};
	return Object.fromEntries(Object.entries(all).filter(([component]) => !f.components || f.components.includes(component)).map(([component, build]) => [`${component}.yaml`, build()]));
}
