/**
 * The Corefile: CoreDNS's configuration, read from the `coredns` ConfigMap
 * (mounted at /etc/coredns/Corefile by kubeadm's Deployment) when the
 * server starts and again whenever the reload plugin sees it change.
 *
 * The grammar is Caddy's: server blocks keyed by zones with an optional
 * port (`.:53`, `example.org:53`), each holding directive lines whose
 * words are the plugin's arguments, and optional `{ }` blocks of option
 * lines. `#` starts a comment; double quotes keep spaces in a word. The
 * order of the directives in the file does not matter: CoreDNS runs its
 * plugins in the fixed order of plugin.cfg. An unknown directive, a
 * missing brace or a bad option is refused with the message CoreDNS
 * prints, so a broken edit fails the way it fails on a real cluster (the
 * reload plugin keeps the running configuration).
 *
 * Mirrors coredns/caddy caddyfile/parse.go (server blocks and directives),
 * coredns/coredns core/dnsserver/zdirectives.go (the directive list),
 * coredns/coredns plugin/kubernetes/setup.go (the kubernetes options),
 * coredns/coredns plugin/forward/setup.go, coredns/coredns
 * plugin/reload/setup.go.
 */

/** Every directive CoreDNS 1.14 is built with, in plugin.cfg's order (the order a query visits them). */
export const DIRECTIVES = [
	'root', 'metadata', 'geoip', 'cancel', 'tls', 'timeouts', 'multisocket', 'reload', 'nsid', 'bufsize', 'bind', 'debug', 'trace', 'ready', 'health', 'pprof', 'prometheus', 'errors', 'log', 'dnstap', 'local', 'dns64', 'acl', 'any', 'chaos', 'loadbalance', 'tsig', 'cache', 'rewrite', 'header', 'dnssec', 'autopath', 'minimal', 'template', 'transfer', 'hosts', 'route53', 'azure', 'clouddns', 'k8s_external', 'kubernetes', 'file', 'auto', 'secondary', 'etcd', 'loop', 'forward', 'grpc', 'erratic', 'whoami', 'on', 'sign', 'view', 'nomad',
] as const;

/** One directive line with its option block. */
export interface Directive {
	name: string;
	args: string[];
	/** The lines of its `{ }` block, each split into words. */
	block: string[][];
	line: number;
}

/** The kubernetes plugin's options (plugin/kubernetes/setup.go defaults). */
export interface KubernetesOptions {
	zones: string[];
	/** `pods disabled` (the default), `insecure` (any a-b-c-d name answers) or `verified` (only a Pod with that IP in that namespace). */
	pods: 'disabled' | 'insecure' | 'verified';
	/** Zones for which a name it cannot answer goes on to the next plugin; [] = every zone; undefined = none. */
	fallthrough?: string[];
	/** TTL of its answers, 5 s unless `ttl` says otherwise (0-3600). */
	ttl: number;
	/** Only these namespaces are exposed (empty: all). */
	namespaces: string[];
}

/** A parsed server block: the zones it serves on one port and its plugins. */
export interface ServerBlock {
	/** Zones, fully qualified (`.`, `cluster.local.`). */
	zones: string[];
	port: number;
	directives: Directive[];
	kubernetes?: KubernetesOptions;
	/** forward: the zone it forwards and its upstreams (`/etc/resolv.conf` is read by the server). */
	forward?: { from: string; to: string[] };
	/** hosts: inline entries (address, names), and whether unknown names fall through. */
	hosts?: { entries: Array<{ ip: string; names: string[] }>; fallthrough: boolean };
	/** rewrite name rules, applied to the question before the other plugins. */
	rewrites: Array<{ kind: 'exact' | 'suffix' | 'prefix' | 'substring'; from: string; to: string }>;
	/** reload: how often it looks at the Corefile, and its jitter (reload/setup.go: 30 s and 15 s). */
	reload?: { intervalMs: number; jitterMs: number };
	has(name: string): boolean;
}

/**
 * A parsed Corefile, or why not: `syntax` errors (an unbalanced brace, a
 * bad server key) are found by the parser itself, which the reload plugin
 * runs before it restarts; `setup` errors (an unknown directive, a bad
 * plugin option) only when the servers are built, so a reload fails then.
 */
export type CorefileResult = { ok: true; servers: ServerBlock[] } | { ok: false; error: string; kind: 'syntax' | 'setup' };

/** Turns a zone as written (`cluster.local`, `.`, `example.org.`) into its fully qualified form. */
export function fqdn(name: string): string {
	const lower = name.toLowerCase();
	return lower.endsWith('.') ? lower : `${lower}.`;
}

interface Token {
	text: string;
	line: number;
}

function tokenize(text: string): Token[] {
	const tokens: Token[] = [];
	let line = 1;
	let i = 0;
	while (i < text.length) {
		const c = text[i];
		if (c === '\n') {
			tokens.push({ text: '\n', line });
			line++;
			i++;
		} else if (c === ' ' || c === '\t' || c === '\r') i++;
		else if (c === '#') {
			while (i < text.length && text[i] !== '\n') i++;
		} else if (c === '"') {
			let word = '';
			i++;
			while (i < text.length && text[i] !== '"') {
				if (text[i] === '\\' && text[i + 1] === '"') i++;
				if (text[i] === '\n') line++;
				word += text[i++];
			}
			i++;
			tokens.push({ text: word, line });
		} else {
			let word = '';
			while (i < text.length && !/[\s]/.test(text[i])) word += text[i++];
			tokens.push({ text: word, line });
		}
	}
	return tokens;
}

function parseError(file: string, line: number, message: string, kind: 'syntax' | 'setup' = 'syntax'): CorefileResult {
	return { ok: false, error: `${file}:${line} - Error during parsing: ${message}`, kind };
}

const KNOWN = new Set<string>(DIRECTIVES);

/** Reads a duration as Go's time.ParseDuration writes the common ones (`30s`, `2m`, `1m30s`). */
function durationMs(text: string): number | undefined {
	const m = /^(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s)?$/.exec(text);
	if (!m || text === '') return undefined;
	return (Number(m[1] ?? 0) * 3600 + Number(m[2] ?? 0) * 60 + Number(m[3] ?? 0)) * 1000;
}

/** Parses a Corefile; the first error is the one CoreDNS reports. */
export function parseCorefile(text: string, file = 'Corefile'): CorefileResult {
	const tokens = tokenize(text);
	const servers: ServerBlock[] = [];
	let i = 0;
	const skipNewlines = () => {
		while (i < tokens.length && tokens[i].text === '\n') i++;
	};
	while (true) {
		skipNewlines();
		if (i >= tokens.length) break;
		// Server block keys, up to the opening brace.
		const keys: Token[] = [];
		while (i < tokens.length && tokens[i].text !== '{') {
			if (tokens[i].text !== '\n') keys.push(tokens[i]);
			i++;
		}
		if (i >= tokens.length) return parseError(file, keys.at(-1)?.line ?? 1, 'Unexpected EOF');
		const open = tokens[i++];
		const directives: Directive[] = [];
		let closed = false;
		while (i < tokens.length) {
			skipNewlines();
			if (i >= tokens.length) break;
			if (tokens[i].text === '}') {
				closed = true;
				i++;
				break;
			}
			const name = tokens[i];
			if (!KNOWN.has(name.text)) return parseError(file, name.line, `Unknown directive '${name.text}'`, 'setup');
			i++;
			const args: string[] = [];
			while (i < tokens.length && tokens[i].text !== '\n' && tokens[i].text !== '{' && tokens[i].text !== '}') args.push(tokens[i++].text);
			const block: string[][] = [];
			if (tokens[i]?.text === '{') {
				i++;
				let current: string[] = [];
				let ended = false;
				while (i < tokens.length) {
					const t = tokens[i++];
					if (t.text === '}') {
						if (current.length) block.push(current);
						ended = true;
						break;
					}
					if (t.text === '\n') {
						if (current.length) block.push(current);
						current = [];
					} else current.push(t.text);
				}
				if (!ended) return parseError(file, tokens.at(-1)?.line ?? name.line, 'Unexpected EOF');
			}
			directives.push({ name: name.text, args, block, line: name.line });
		}
		if (!closed) return parseError(file, open.line, 'Unexpected EOF');
		const zones: string[] = [];
		let port = 53;
		for (const k of keys) {
			const m = /^(?:dns:\/\/)?([^:]*)(?::(\d+))?$/.exec(k.text);
			if (!m) return parseError(file, k.line, `invalid server block key '${k.text}'`);
			zones.push(fqdn(m[1] || '.'));
			if (m[2]) port = Number(m[2]);
		}
		if (zones.length === 0) zones.push('.');
		const built = buildServer(zones, port, directives, file);
		if (!built.ok) return built;
		servers.push(built.server);
	}
	if (servers.length === 0) return { ok: false, error: `${file}:1 - Error during parsing: no server blocks`, kind: 'syntax' };
	return { ok: true, servers };
}

function buildServer(zones: string[], port: number, directives: Directive[], file: string): { ok: true; server: ServerBlock } | { ok: false; error: string; kind: 'setup' } {
	const names = new Set(directives.map((d) => d.name));
	const server: ServerBlock = { zones, port, directives, rewrites: [], has: (name) => names.has(name) };
	const fail = (d: Directive, message: string) => ({ ok: false as const, error: `plugin/${d.name}: ${message.replace(/^Corefile:/, `${file}:`)}`, kind: 'setup' as const });
	for (const d of directives) {
		switch (d.name) {
			case 'kubernetes': {
				const options: KubernetesOptions = { zones: d.args.length ? d.args.map(fqdn) : zones, pods: 'disabled', ttl: 5, namespaces: [] };
				for (const [option, ...values] of d.block) {
					switch (option) {
						case 'pods':
							if (values[0] !== 'disabled' && values[0] !== 'insecure' && values[0] !== 'verified') return fail(d, `Corefile:${d.line} - Error during parsing: Wrong argument count or unexpected line ending after '${values[0] ?? 'pods'}'`);
							options.pods = values[0];
							break;
						case 'fallthrough':
							options.fallthrough = values.map(fqdn);
							break;
						case 'ttl': {
							const ttl = Number(values[0]);
							if (!Number.isInteger(ttl) || ttl < 0 || ttl > 3600) return fail(d, `ttl must be in range [0, 3600]: ${values[0] ?? ''}`);
							options.ttl = ttl;
							break;
						}
						case 'namespaces':
							options.namespaces = values;
							break;
						case 'endpoint':
						case 'tls':
						case 'kubeconfig':
						case 'labels':
						case 'namespace_labels':
						case 'noendpoints':
						case 'endpoint_pod_names':
						case 'ignore':
						case 'multicluster':
						case 'startup_timeout':
							break;
						default:
							return fail(d, `Corefile:${d.line} - Error during parsing: unknown property '${option}'`);
					}
				}
				server.kubernetes = options;
				break;
			}
			case 'forward': {
				if (d.args.length < 2) return fail(d, `Corefile:${d.line} - Error during parsing: Wrong argument count or unexpected line ending after '${d.args.at(-1) ?? 'forward'}'`);
				server.forward = { from: fqdn(d.args[0]), to: d.args.slice(1) };
				break;
			}
			case 'hosts': {
				const entries: Array<{ ip: string; names: string[] }> = [];
				let fallthrough = false;
				for (const words of d.block) {
					if (words[0] === 'fallthrough') fallthrough = true;
					else if (/^\d+\.\d+\.\d+\.\d+$/.test(words[0]) && words.length > 1) entries.push({ ip: words[0], names: words.slice(1).map(fqdn) });
				}
				server.hosts = { entries, fallthrough };
				break;
			}
			case 'rewrite': {
				// rewrite [continue|stop] name [exact|prefix|suffix|substring] FROM TO
				const words = d.args[0] === 'continue' || d.args[0] === 'stop' ? d.args.slice(1) : d.args;
				if (words[0] !== 'name') break;
				const kind = ['exact', 'prefix', 'suffix', 'substring'].includes(words[1]) ? (words[1] as 'exact' | 'prefix' | 'suffix' | 'substring') : 'exact';
				const [from, to] = kind === words[1] ? words.slice(2) : words.slice(1);
				if (!from || !to) return fail(d, `Corefile:${d.line} - Error during parsing: Wrong argument count or unexpected line ending after 'name'`);
				server.rewrites.push({ kind, from: kind === 'exact' ? fqdn(from) : from.toLowerCase(), to: kind === 'exact' ? fqdn(to) : to.toLowerCase() });
				break;
			}
			case 'reload': {
				const intervalMs = d.args[0] === undefined ? 30_000 : durationMs(d.args[0]);
				const jitterMs = d.args[1] === undefined ? 15_000 : durationMs(d.args[1]);
				// reload/setup.go: the interval is at least 2 s, a jitter at least 1 s, and a jitter over half the interval is cut to half.
				if (intervalMs === undefined || intervalMs < 2_000) return fail(d, `Corefile:${d.line} - Error during parsing: interval value must be greater or equal to 2s`);
				if (jitterMs === undefined || (jitterMs > 0 && jitterMs < 1_000)) return fail(d, `Corefile:${d.line} - Error during parsing: jitter value must be greater or equal to 1s`);
				server.reload = { intervalMs, jitterMs: Math.min(jitterMs, intervalMs / 2) };
				break;
			}
		}
	}
	return { ok: true, server };
}

/** The server block that answers `name` on `port`: the one whose zone is the longest suffix of the name. */
export function serverFor(servers: readonly ServerBlock[], name: string, port = 53): { server: ServerBlock; zone: string } | undefined {
	let best: { server: ServerBlock; zone: string } | undefined;
	for (const server of servers) {
		if (server.port !== port) continue;
		for (const zone of server.zones) {
			if (!inZone(name, zone)) continue;
			if (!best || zone.length > best.zone.length) best = { server, zone };
		}
	}
	return best;
}

/** Whether a fully qualified name is in (or is) a zone. */
export function inZone(name: string, zone: string): boolean {
	return zone === '.' || name === zone || name.endsWith(`.${zone}`);
}
