/**
 * The control-plane images' programs and the add-ons kubeadm installs:
 * etcd (and etcdctl/etcdutl's version), kube-apiserver,
 * kube-controller-manager, kube-scheduler, kube-proxy and CoreDNS, and
 * metrics-server when the reader installs it, and the Pod network's
 * daemons (flanneld, calico-node, calico-kube-controllers). Each
 * serves its default ports and writes its first lines; the component
 * itself is a simulated process the cluster starts and stops through the
 * runtime's hooks when its container starts serving and exits.
 *
 * It follows the programs' flags (`--version`), klog's header, etcd's JSON
 * log and the ports kubeadm's static pods and add-ons use.
 *
 * Mirrors cmd/kubeadm/app/phases/controlplane/manifests.go (the flags and
 * ports), cmd/kubeadm/app/phases/etcd/local.go,
 * staging/src/k8s.io/component-base/version/verflag/verflag.go (--version),
 * etcd-io/etcd client/pkg/logutil/zap.go (etcd's JSON log).
 */
import { klogHeader } from '../../component-base/klog.ts';
import { formatRfc3339Micro } from '../../golang/time.ts';
import { sha512Hex } from '../../golang/sha512.ts';
import { utf8Encode } from '../../golang/utf8.ts';
import { systemComponentOf, type CatalogImage, type SystemComponent } from '../images.ts';
import type { CommandOutcome, OutputLine, ServedPort } from '../behaviour.ts';

/** The ports and probe answers of the control-plane programs (their default secure/health ports). */
const COMPONENT_PORTS: Record<SystemComponent, ServedPort[]> = {
	// etcd: clients 2379, peers 2380, metrics and /health 2381 (kubeadm's --listen-metrics-urls).
	etcd: [
		{ port: 2379, protocol: 'tcp' },
		{ port: 2380, protocol: 'tcp' },
		{ port: 2381, protocol: 'http' },
	],
	'kube-apiserver': [{ port: 6443, protocol: 'http' }],
	'kube-controller-manager': [{ port: 10257, protocol: 'http' }],
	'kube-scheduler': [{ port: 10259, protocol: 'http' }],
	// kube-proxy: metrics 10249, healthz 10256.
	'kube-proxy': [
		{ port: 10249, protocol: 'http' },
		{ port: 10256, protocol: 'http' },
	],
	// cloud-controller-manager: its secure port 10258 (cloud-provider ports.go CloudControllerManagerPort).
	'cloud-controller-manager': [{ port: 10258, protocol: 'http' }],
	// CoreDNS: DNS 53, health 8080, ready 8181, metrics 9153.
	coredns: [
		{ port: 53, protocol: 'tcp' },
		{ port: 8080, protocol: 'http' },
		{ port: 8181, protocol: 'http' },
		{ port: 9153, protocol: 'http' },
	],
	// metrics-server: its --secure-port (10250 in the release manifest; see portsOf).
	'metrics-server': [{ port: 10250, protocol: 'http' }],
	// flanneld: /healthz and /readyz on kube-flannel.yml's --healthz-port=8081.
	flanneld: [{ port: 8081, protocol: 'http' }],
	// calico-node: Felix's health port 9099 and BIRD's BGP port 179.
	'calico-node': [
		{ port: 9099, protocol: 'http' },
		{ port: 179, protocol: 'tcp' },
	],
	// calico-kube-controllers: its Prometheus metrics on 9094 (its probes are exec'd check-status).
	'calico-kube-controllers': [{ port: 9094, protocol: 'http' }],
};

/** Entry points that are not named after their component: calico/node's runit supervisor, calico/kube-controllers' binary. */
const ENTRY_ALIASES: Record<string, SystemComponent> = { start_runit: 'calico-node', 'kube-controllers': 'calico-kube-controllers' };

/** The ports a component listens on: metrics-server's follow its --secure-port flag. */
function portsOf(component: SystemComponent, args: string[]): ServedPort[] {
	if (component !== 'metrics-server') return COMPONENT_PORTS[component];
	const flag = args.find((a) => a.startsWith('--secure-port='));
	const port = flag ? Number(flag.slice('--secure-port='.length)) : NaN;
	return Number.isInteger(port) && port > 0 ? [{ port, protocol: 'http' }] : COMPONENT_PORTS[component];
}

/** Runs `argv` if it is a control-plane program (or an etcd tool); undefined if it is another program. */
export function runSystemProgram(image: CatalogImage, argv: string[], wallMs: number, options: { main: boolean }, out: OutputLine[], readFile?: (path: string) => string | undefined): CommandOutcome | undefined {
	const binary = argv[0];
	const base = binary.slice(binary.lastIndexOf('/') + 1);
	const args = argv.slice(1);
	const print = (text: string) => out.push({ stream: 'stdout', text });
	const done = (status: number): CommandOutcome => ({ kind: 'done', status, out });
	const version = image.version;
	if (base === 'coredns') return systemServer(image, 'coredns', args, wallMs, options, out, readFile);
	if (base === 'metrics-server') return systemServer(image, 'metrics-server', args, wallMs, options, out);
	const component = systemComponentOf(image);
	if (component && (base === component || base === 'kube-proxy' || ENTRY_ALIASES[base] === component)) return systemServer(image, component, args, wallMs, options, out, readFile);
	if (image.program === 'etcd' && (base === 'etcdctl' || base === 'etcdutl')) {
		if (args.includes('version') || args.includes('--version')) {
			print(`${base} version: ${version}`);
			print('API version: 3.6');
			return done(0);
		}
		return done(0);
	}
	return undefined;
}

/** The control-plane programs and kube-proxy/CoreDNS: backed by simulated processes through the runtime's hooks. */
function systemServer(image: CatalogImage, component: SystemComponent, args: string[], wallMs: number, options: { main: boolean }, out: OutputLine[], readFile?: (path: string) => string | undefined): CommandOutcome {
	if (args.includes('--version') || args.includes('-version') || args[0] === 'version') {
		out.push({ stream: 'stdout', text: component === 'etcd' ? `etcd Version: ${image.version}` : component === 'coredns' ? `CoreDNS-${image.version}` : `Kubernetes ${image.version}` });
		return { kind: options.main ? 'exit' : 'done', status: 0, out } as CommandOutcome;
	}
	if (!options.main) return { kind: 'done', status: 0, out };
	// klog's header as the control-plane programs write it (PID 1 in their container).
	const h = (fileLine: string) => klogHeader('I', wallMs, 1, fileLine);
	const startup: Record<SystemComponent, string[]> = {
		etcd: [`{"level":"info","msg":"starting etcd member","etcd-version":"${image.version}"}`, '{"level":"info","msg":"serving client traffic on 0.0.0.0:2379"}'],
		'kube-apiserver': [`${h('options.go:249')}external host was not specified, using the advertise address`, `${h('server.go:163')}kube-apiserver ${image.version} starting`],
		'kube-controller-manager': [`${h('serving.go:386')}generated a self-signed serving certificate`, `${h('controllermanager.go:199')}kube-controller-manager ${image.version} starting`],
		'kube-scheduler': [`${h('serving.go:386')}generated a self-signed serving certificate`, `${h('server.go:167')}kube-scheduler ${image.version} starting`],
		// kube-proxy's process writes its own start-up lines, which name its mode (network/kube-proxy.ts).
		'kube-proxy': [],
		'cloud-controller-manager': [
			`${h('serving.go:386')}generated a self-signed serving certificate`,
			`${h('controllermanager.go:169')}Version: ${image.version}`,
			// startRouteController (cloud-provider app/core.go) says why the route controller does not start.
			...(args.includes('--configure-cloud-routes=false') ? [`${h('core.go:105')}Will not configure cloud provider routes, --configure-cloud-routes: false`] : []),
		],
		coredns: corednsStartup(image, args, readFile),
		// metrics-server's simulated process writes its own lines (metrics-server/metrics-server.ts).
		'metrics-server': [],
		flanneld: flanneldStartup(wallMs, readFile),
		'calico-node': [`${calicoStamp(wallMs)} [INFO][1] startup/startup.go: Early log level set to info`, `${calicoStamp(wallMs)} [INFO][1] startup/startup.go: Using NODENAME environment for node name`, `${calicoStamp(wallMs)} [INFO][1] startup/startup.go: Starting up calico-node version: v${image.version}`],
		'calico-kube-controllers': [`${calicoStamp(wallMs)} [INFO][1] main.go: Loaded configuration from environment`, `${calicoStamp(wallMs)} [INFO][1] main.go: Starting controller ControllerType="Node"`],
	};
	return {
		kind: 'serve',
		out,
		server: {
			name: component,
			ports: portsOf(component, args),
			readyAfterMs: component === 'kube-apiserver' ? 2_000 : 500,
			// Go servers handle SIGTERM and stop cleanly. CoreDNS waits out its
			// `lameduck 5s` (kubeadm's Corefile) before exiting.
			onStop: { kind: 'graceful', afterMs: component === 'coredns' ? 5_000 : component === 'kube-apiserver' ? 1_000 : 200, exitCode: 0 },
			startup: startup[component],
			shutdown: component === 'coredns' ? ['[INFO] SIGTERM: Shutting down servers then terminating', '[INFO] plugin/health: Going into lameduck mode for 5s'] : [],
			component,
		},
	};
}

/** Calico's logrus timestamp: `2026-11-30 08:00:05.123`. */
function calicoStamp(wallMs: number): string {
	return formatRfc3339Micro(wallMs).replace('T', ' ').slice(0, 23);
}

/**
 * flanneld's first lines, in the order main.go logs them (klog): the
 * wait for its node informer, the signal handlers, the backend its net-conf.json names,
 * the subnet file it writes (the cluster writes the file itself, from the
 * Node's podCIDR, when the container starts: cluster/node-cni.ts), the
 * backend running. flannel-io/flannel main.go.
 */
function flanneldStartup(wallMs: number, readFile: ((path: string) => string | undefined) | undefined): string[] {
	const h = (fileLine: string) => klogHeader('I', wallMs, 1, fileLine);
	let backend = 'vxlan';
	try {
		const conf = JSON.parse(readFile?.('/etc/kube-flannel/net-conf.json') ?? '{}') as { Backend?: { Type?: string } };
		backend = conf.Backend?.Type ?? backend;
	} catch {
		// flanneld would exit on a net-conf.json that does not parse; the simulation keeps its default.
	}
	return [
		`${h('kube.go:139')}Waiting 10m0s for node controller to sync`,
		`${h('main.go:258')}Installing signal handlers`,
		`${h('main.go:540')}Found network config - Backend type: ${backend}`,
		`${h('main.go:481')}Wrote subnet file to /run/flannel/subnet.env`,
		`${h('main.go:488')}Running backend.`,
	];
}

/**
 * CoreDNS's first lines: the server blocks it listens for, the reload
 * plugin's digest of the Corefile it runs (the same line it logs after
 * each reload, so the two can be compared), its version and build.
 */
function corednsStartup(image: CatalogImage, args: string[], readFile: ((path: string) => string | undefined) | undefined): string[] {
	const confAt = args.indexOf('-conf');
	const path = confAt >= 0 ? args[confAt + 1] : 'Corefile';
	const corefile = readFile?.(path) ?? '';
	const lines = ['.:53'];
	if (/^\s*reload\b/m.test(corefile)) lines.push(`[INFO] plugin/reload: Running configuration SHA512 = ${sha512Hex(utf8Encode(corefile))}`);
	lines.push(`CoreDNS-${image.version}`, 'linux/amd64, go1.26.1, 0cf2e22');
	return lines;
}
