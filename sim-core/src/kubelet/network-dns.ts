/**
 * The kubelet's DNS configurer: the resolv.conf each Pod sandbox gets,
 * from the Pod's `dnsPolicy` and `dnsConfig` and the kubelet's
 * `clusterDNS`, `clusterDomain` and `resolvConf` settings. containerd
 * writes it into the sandbox (CRI PodSandboxConfig.dns_config) and every
 * container of the Pod sees it at /etc/resolv.conf.
 *
 * - ClusterFirst (the default): the cluster's DNS Service as nameserver,
 *   the search list `<namespace>.svc.<domain> svc.<domain> <domain>`
 *   followed by the node's own search domains, and `ndots:5`. A
 *   host-network Pod with ClusterFirst falls back to Default.
 * - ClusterFirstWithHostNet: ClusterFirst, for host-network Pods too.
 * - Default: the node's resolv.conf (kubeadm points the kubelet at
 *   systemd-resolved's upstream file, /run/systemd/resolve/resolv.conf,
 *   not at its 127.0.0.53 stub, which would not answer inside a Pod).
 *   CoreDNS itself runs with Default, so it forwards outside names to the
 *   node's resolvers.
 * - None: only what `dnsConfig` says.
 * `dnsConfig` is merged last: nameservers and searches appended (duplicates
 * dropped, at most 3 nameservers and 32 search domains), options
 * overriding by name.
 *
 * Mirrors pkg/kubelet/network/dns/dns.go (GetPodDNS, getPodDNSType,
 * appendDNSConfig, parseResolvConf), pkg/apis/core/validation/validation.go
 * (MaxDNSNameservers, MaxDNSSearchPaths).
 */

/** CRI DNSConfig. */
export interface PodDnsConfig {
	servers: string[];
	searches: string[];
	options: string[];
}

interface PodLike {
	metadata: { namespace?: string };
	spec: { dnsPolicy?: string; hostNetwork?: boolean; dnsConfig?: { nameservers?: string[]; searches?: string[]; options?: Array<{ name?: string; value?: string }> } };
}

/** validation.go: MaxDNSNameservers 3, MaxDNSSearchPaths 32. */
const MAX_NAMESERVERS = 3;
const MAX_SEARCHES = 32;

/** parseResolvConf: the node file's nameservers, search list and options. */
export function parseHostResolvConf(text: string | undefined): PodDnsConfig {
	const out: PodDnsConfig = { servers: [], searches: [], options: [] };
	for (const raw of (text ?? '').split('\n')) {
		const line = raw.replace(/[#;].*$/, '').trim();
		const [key, ...values] = line.split(/\s+/);
		if (key === 'nameserver' && values[0]) out.servers.push(values[0]);
		else if (key === 'search') out.searches = values.filter((v) => v !== '.');
		else if (key === 'options') out.options.push(...values);
	}
	return out;
}

const dedup = (items: string[]) => items.filter((v, i) => items.indexOf(v) === i);

/** GetPodDNS: the sandbox's DNS configuration. */
export function podDnsConfig(pod: PodLike, settings: { clusterDNS: string[]; clusterDomain: string; hostResolvConf: string | undefined }): PodDnsConfig {
	const host = parseHostResolvConf(settings.hostResolvConf);
	const policy = pod.spec.dnsPolicy ?? 'ClusterFirst';
	const hostNetwork = pod.spec.hostNetwork === true;
	const clusterFirst = settings.clusterDNS.length > 0 && (policy === 'ClusterFirstWithHostNet' || (policy === 'ClusterFirst' && !hostNetwork));
	let config: PodDnsConfig;
	if (policy === 'None') config = { servers: [], searches: [], options: [] };
	else if (clusterFirst) {
		const domain = settings.clusterDomain.replace(/\.$/, '');
		const ns = pod.metadata.namespace ?? 'default';
		config = { servers: [...settings.clusterDNS], searches: [`${ns}.svc.${domain}`, `svc.${domain}`, domain, ...host.searches], options: ['ndots:5'] };
	} else config = host;
	const extra = pod.spec.dnsConfig;
	if (extra) {
		config = {
			servers: dedup([...config.servers, ...(extra.nameservers ?? [])]),
			searches: dedup([...config.searches, ...(extra.searches ?? [])]),
			options: mergeOptions(config.options, extra.options ?? []),
		};
	}
	return { servers: config.servers.slice(0, MAX_NAMESERVERS), searches: dedup(config.searches).slice(0, MAX_SEARCHES), options: config.options };
}

function mergeOptions(base: string[], extra: Array<{ name?: string; value?: string }>): string[] {
	const out = new Map<string, string>();
	for (const o of base) out.set(o.split(':')[0], o);
	for (const o of extra) if (o.name) out.set(o.name, o.value !== undefined ? `${o.name}:${o.value}` : o.name);
	return [...out.values()];
}
