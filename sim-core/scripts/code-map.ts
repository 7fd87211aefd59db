/**
 * The code map: from each module of sim-core/src to the upstream file(s) it
 * mirrors, read from the modules' own headers, printed as Markdown tables
 * grouped by top-level folder in the order of the layer table
 * (../lint/component-boundaries.js): the shared layers bottom-up, then the
 * components, then the wiring.
 *
 *     node --experimental-transform-types --no-warnings sim-core/scripts/code-map.ts            # print the tables
 *     node --experimental-transform-types --no-warnings sim-core/scripts/code-map.ts --write    # refresh sim-core/README.md
 *     node --experimental-transform-types --no-warnings sim-core/scripts/code-map.ts --check    # exit 1 on a missing Mirrors line or a stale README
 *
 * The header contract. Every non-test module (not `*.test.ts`, not under
 * `testdata/`) starts with a TSDoc comment whose first sentence says what
 * it models and whose last paragraph is one sentence of either form:
 *
 *     Mirrors nothing upstream: <why>.
 *     Mirrors <entry>, <entry>, ... .
 *
 * where an entry is `[<repository> ]<path>[ (<note>)]`: the path as it is in
 * its repository, the repository as GitHub spells it (`etcd-io/etcd`) or as
 * REPOSITORIES below names it, and no repository for kubernetes/kubernetes
 * (staging repositories by their `staging/src/k8s.io/...` path). The note
 * says which part is followed (functions, types), in prose.
 *
 * Links point at the versions the simulation follows (REPOSITORIES); a
 * repository not listed there is an error, so every link is one someone
 * chose.
 */
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { COMPONENTS, SHARED_LAYERS, WIRING } from '../lint/component-boundaries.js';

const SIM_CORE = join(dirname(fileURLToPath(import.meta.url)), '..');
const SOURCES = join(SIM_CORE, 'src');
const README = join(SIM_CORE, 'README.md');
export const START_MARKER = '<!-- code-map:start -->';
export const END_MARKER = '<!-- code-map:end -->';
const KUBERNETES = 'kubernetes/kubernetes';

/** Where a repository's files are read, and at which version: `{path}` is the file's path in it. */
interface Repository {
	/** URL of a file; `{path}` is replaced. */
	readonly blob: string;
	/** URL of a folder (an entry ending in `/`), when it differs. */
	readonly tree?: string;
}

const github = (repo: string, ref = 'HEAD'): Repository => ({
	blob: `https://github.com/${repo}/blob/${ref}/{path}`,
	tree: `https://github.com/${repo}/tree/${ref}/{path}`,
});
const cgit = (base: string): Repository => ({ blob: `${base}/tree/{path}` });

/**
 * Every repository a header may name. The Kubernetes release and the
 * releases kubeadm v1.36 installs are pinned; so is a repository whose
 * default branch is another major version than the one followed (its files
 * moved or were renamed there). Everything else links to its default
 * branch (`HEAD`).
 */
export const REPOSITORIES: Readonly<Record<string, Repository>> = {
	[KUBERNETES]: github(KUBERNETES, 'v1.36.3'),
	'etcd-io/etcd': github('etcd-io/etcd', 'v3.6.10'),
	// go.etcd.io/raft/v3, the Raft library etcd v3.6 builds on.
	'etcd-io/raft': github('etcd-io/raft', 'v3.6.0'),
	'containerd/containerd': github('containerd/containerd', 'v2.2.1'),
	'coredns/coredns': github('coredns/coredns', 'v1.14.2'),
	'golang/go': github('golang/go', 'go1.26.0'),
	// go.yaml.in/yaml/v2, which sigs.k8s.io/yaml v1.6 reads with; the default branch is v4.
	'yaml/go-yaml': github('yaml/go-yaml', 'v2.4.3'),
	// gopkg.in/go-jose/go-jose.v2, the API server's JWT library; the default branch is v4.
	'go-jose/go-jose': github('go-jose/go-jose', 'v2.6.3'),
	// urfave/cli/v2, crictl's command line; the default branch is v3.
	'urfave/cli': github('urfave/cli', 'v2.27.7'),
	// etcdctl's table writer; the default branch is v1, rewritten.
	'olekukonko/tablewriter': github('olekukonko/tablewriter', 'v0.0.5'),
	// Ubuntu 24.04's systemd; the default branch renamed files since (journald-server.c).
	'systemd/systemd': github('systemd/systemd', 'v255'),
	// kustomize v5.8.1 (its api module v0.21.1), what kubectl v1.36 embeds (staging/src/k8s.io/kubectl/go.mod).
	'kubernetes-sigs/kustomize': github('kubernetes-sigs/kustomize', 'api/v0.21.1'),
	// The metrics-server release the manifest URL's `latest` stands for.
	'kubernetes-sigs/metrics-server': github('kubernetes-sigs/metrics-server', 'v0.8.0'),
	// OpenSSL 3.0.15, Debian 12's openssl (the machines' and the workstation's).
	'openssl/openssl': github('openssl/openssl', 'openssl-3.0.15'),
	// Ubuntu 24.04's procps (ps, pgrep, pidof); the default branch moved on to 4.0.5+.
	'procps-ng/procps': github('procps-ng/procps', 'v4.0.4'),
	...Object.fromEntries(
		[
			'kubernetes/klog',
			'kubernetes/release',
			'kubernetes/website',
			'kubernetes-sigs/yaml',
			'kubernetes-sigs/structured-merge-diff',
			'kubernetes/kube-openapi',
			'kubernetes-sigs/json',
			'kubernetes-sigs/knftables',
			'kubernetes-sigs/cri-tools',
			'kubernetes-sigs/kube-scheduler-simulator',
			'kubernetes/website',
			'prometheus/common',
			'liggitt/tabwriter',
			'evanphx/json-patch',
			'fatih/camelcase',
			'spf13/cobra',
			'spf13/pflag',
			'sirupsen/logrus',
			'docker/go-units',
			'dustin/go-humanize',
			'uber-go/zap',
			'grpc/grpc-go',
			'distribution/reference',
			'containernetworking/plugins',
			'flannel-io/flannel',
			'flannel-io/cni-plugin',
			'projectcalico/calico',
			'containerd/go-cni',
			'containernetworking/cni',
			'cockroachdb/datadriven',
			'coreutils/coreutils',
			'coreutils/gnulib',
			'tytso/e2fsprogs',
			'google/cadvisor',
			'mirror/busybox',
			'util-linux/util-linux',
			'ThomasDickey/mawk-snapshots',
			'openssh/openssh-portable',
			'curl/curl',
			'iproute2/iproute2',
			'openssl/openssl',
			'torvalds/linux',
			'nginx/nginx',
			'apache/httpd',
			'python/cpython',
			'pjacklam/p5-Math-BigInt',
			'pjacklam/p5-bignum',
			'robfig/cron',
			'redis/redis',
			'coredns/coredns',
			'miekg/dns',
			'coredns/caddy',
			'isc-projects/bind9',
			'iputils/iputils',
			'bminor/musl',
		].map((repo) => [repo, github(repo)]),
	),
	// Projects hosted outside GitHub, at their default branch.
	'netfilter/iptables': cgit('https://git.netfilter.org/iptables'),
	'netfilter/nftables': cgit('https://git.netfilter.org/nftables'),
	'netfilter/conntrack-tools': cgit('https://git.netfilter.org/conntrack-tools'),
	'netfilter/libnetfilter_conntrack': cgit('https://git.netfilter.org/libnetfilter_conntrack'),
	'kernel/ipvsadm': cgit('https://git.kernel.org/pub/scm/utils/kernel/ipvsadm/ipvsadm.git'),
	'gnu/bash': cgit('https://git.savannah.gnu.org/cgit/bash.git'),
	'gnu/grep': cgit('https://git.savannah.gnu.org/cgit/grep.git'),
	'gnu/sed': cgit('https://git.savannah.gnu.org/cgit/sed.git'),
	'gnu/findutils': cgit('https://git.savannah.gnu.org/cgit/findutils.git'),
	'gnu/diffutils': cgit('https://git.savannah.gnu.org/cgit/diffutils.git'),
	'gnu/glibc': { blob: 'https://sourceware.org/git/?p=glibc.git;a=blob;f={path};hb=HEAD', tree: 'https://sourceware.org/git/?p=glibc.git;a=tree;f={path};hb=HEAD' },
};

/** One upstream file (or folder) a module mirrors. */
export interface Upstream {
	readonly repository: string;
	readonly path: string;
	readonly note?: string;
}

/** What a module's header says. */
export interface ModuleEntry {
	/** Path relative to sim-core/src, with `/`. */
	readonly module: string;
	/** The header's first sentence. */
	readonly models: string;
	/** The upstream files, empty for "nothing upstream". */
	readonly upstream: readonly Upstream[];
	/** Why nothing upstream is mirrored, when that is the case. */
	readonly nothing?: string;
	/** What is wrong with the header, if anything. */
	readonly problems: readonly string[];
}

/** Every non-test module of sim-core/src, sorted. */
export function listModules(sources = SOURCES): string[] {
	const found: string[] = [];
	const walk = (dir: string): void => {
		for (const entry of readdirSync(dir, { withFileTypes: true })) {
			const path = join(dir, entry.name);
			if (entry.isDirectory()) {
				if (entry.name !== 'testdata') walk(path);
			} else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') && !entry.name.endsWith('.d.ts')) {
				found.push(relative(sources, path).split(sep).join('/'));
			}
		}
	};
	walk(sources);
	return found.sort();
}

/** The header comment's paragraphs, each joined into one line, or undefined when the module does not start with one. */
export function headerParagraphs(text: string): string[] | undefined {
	const match = /^\/\*\*([\s\S]*?)\*\//.exec(text);
	if (!match) return undefined;
	const lines = match[1].split('\n').map((line) => line.replace(/^\s*\*(?: |$)/, '').trimEnd());
	const paragraphs: string[] = [];
	let current: string[] = [];
	for (const line of lines) {
		if (line.trim() === '') {
			if (current.length) paragraphs.push(current.join(' '));
			current = [];
		} else current.push(line.trim());
	}
	if (current.length) paragraphs.push(current.join(' '));
	return paragraphs;
}

/** Where a sentence ends: the first `.`, `?` or `!` followed by a space (or the end) outside parentheses and code spans. */
function sentenceEnd(text: string): number {
	let depth = 0;
	let code = false;
	for (let i = 0; i < text.length; i++) {
		const c = text[i];
		if (c === '`') code = !code;
		else if (code) continue;
		else if (c === '(') depth++;
		else if (c === ')') depth = Math.max(0, depth - 1);
		else if (depth === 0 && (c === '.' || c === '?' || c === '!') && (i + 1 === text.length || text[i + 1] === ' ')) {
			if (c === '.' && /(?:e\.g|i\.e|etc)$/.test(text.slice(0, i))) continue;
			return i + 1;
		}
	}
	return text.length;
}

/** Splits `a, b (x, y), c` at the commas outside parentheses. */
function splitEntries(text: string): string[] {
	const parts: string[] = [];
	let depth = 0;
	let start = 0;
	for (let i = 0; i < text.length; i++) {
		if (text[i] === '(') depth++;
		else if (text[i] === ')') depth--;
		else if (text[i] === ',' && depth === 0 && text[i + 1] === ' ') {
			parts.push(text.slice(start, i));
			start = i + 2;
		}
	}
	parts.push(text.slice(start));
	return parts.map((part) => part.trim());
}

/** Reads one `Mirrors` entry: `[repository ]path[ (note)]`. */
export function parseEntry(entry: string): Upstream | string {
	let head = entry;
	let note: string | undefined;
	const open = entry.indexOf(' (');
	if (open >= 0) {
		if (!entry.endsWith(')')) return `entry "${entry}": a note in parentheses must end the entry`;
		head = entry.slice(0, open);
		note = entry.slice(open + 2, -1);
	}
	const words = head.split(' ');
	if (words.length > 2 || words.some((word) => !word)) return `entry "${entry}": expected [repository ]path[ (note)]`;
	const [repository, path] = words.length === 2 ? words : [KUBERNETES, words[0]];
	if (!REPOSITORIES[repository]) return `entry "${entry}": unknown repository ${repository} (add it to REPOSITORIES in sim-core/scripts/code-map.ts)`;
	if (path.startsWith('/') || path.includes('..')) return `entry "${entry}": the path must be relative to its repository`;
	return note === undefined ? { repository, path } : { repository, path, note };
}

/** Reads a module's header into its code map entry. */
export function readModule(module: string, text: string): ModuleEntry {
	const problems: string[] = [];
	const paragraphs = headerParagraphs(text);
	if (!paragraphs?.length) return { module, models: '', upstream: [], problems: ['does not start with a TSDoc comment (/** ... */)'] };
	const last = paragraphs[paragraphs.length - 1];
	const first = paragraphs.length > 1 ? paragraphs[0] : '';
	const models = first.slice(0, sentenceEnd(first)).replace(/:$/, '.');
	if (!models) problems.push('the header has no sentence saying what the module models before its Mirrors line');
	if (!last.startsWith('Mirrors ')) return { module, models, upstream: [], problems: [...problems, 'the header does not end with a "Mirrors ..." paragraph'] };
	if (sentenceEnd(last) !== last.length || !last.endsWith('.')) problems.push('the Mirrors paragraph must be one sentence ending with a full stop');
	const body = last.slice('Mirrors '.length).replace(/\.$/, '');
	const nothing = /^nothing upstream: (.+)$/.exec(body);
	if (nothing) return { module, models, upstream: [], nothing: nothing[1], problems };
	if (body.startsWith('nothing upstream')) problems.push('write "Mirrors nothing upstream: <why>."');
	const upstream: Upstream[] = [];
	for (const entry of splitEntries(body)) {
		const parsed = parseEntry(entry);
		if (typeof parsed === 'string') problems.push(parsed);
		else upstream.push(parsed);
	}
	return { module, models, upstream, problems };
}

/** Reads every module's header. */
export function readModules(sources = SOURCES): ModuleEntry[] {
	return listModules(sources).map((module) => readModule(module, readFileSync(join(sources, module), 'utf8')));
}

/** The link to one upstream file, at the version followed. */
export function upstreamUrl(upstream: Upstream): string {
	const repository = REPOSITORIES[upstream.repository];
	let path = upstream.path;
	if (upstream.repository === KUBERNETES && path.startsWith('k8s.io/')) path = `staging/src/${path}`;
	const template = path.endsWith('/') ? (repository.tree ?? repository.blob) : repository.blob;
	return template.replace('{path}', path.replace(/\/$/, ''));
}

/** How a link reads: staging paths as their k8s.io module path, other repositories prefixed with their name. */
function upstreamLabel(upstream: Upstream): string {
	if (upstream.repository !== KUBERNETES) return `${upstream.repository} ${upstream.path}`;
	return upstream.path.replace(/^staging\/src\//, '');
}

const MAX_MODELS = 110;

/** The first sentence, cut at a word boundary to fit a table cell, with `|` escaped and code spans kept whole. */
export function shorten(sentence: string): string {
	let text = sentence;
	if (text.length > MAX_MODELS) {
		const cut = text.lastIndexOf(' ', MAX_MODELS - 1);
		text = text.slice(0, cut > 40 ? cut : MAX_MODELS - 1);
		if ((text.match(/`/g) ?? []).length % 2) text = text.slice(0, text.lastIndexOf('`')).trimEnd();
		text = text.replace(/[\s,;:(—-]+$/, '') + ' …';
	}
	return text.replace(/\|/g, '\\|');
}

/** The groups of the table, in the layer table's order, each with a line on what it may import. */
function groups(): { folder: string; title: string }[] {
	const shared = Object.entries(SHARED_LAYERS).map(([folder, allowed]) => ({
		folder,
		title: `\`${folder}/\` (shared layer; imports ${allowed.length ? allowed.map((layer) => `\`${layer}/\``).join(', ') : 'nothing else'})`,
	}));
	const components = COMPONENTS.map((folder) => ({ folder, title: `\`${folder}/\` (component)` }));
	const wiring = WIRING.map((folder) => ({ folder, title: `\`${folder}/\` (wiring)` }));
	return [...shared, ...components, ...wiring, { folder: '', title: '`index.ts` (wiring: the public API)' }];
}

/** The code map as Markdown: one table per top-level folder. */
export function renderCodeMap(modules: readonly ModuleEntry[]): string {
	const out: string[] = [];
	const known = new Set(groups().map((group) => group.folder));
	const folderOf = (module: string): string => (module.includes('/') ? module.slice(0, module.indexOf('/')) : '');
	const strays = modules.filter((entry) => !known.has(folderOf(entry.module)));
	for (const { folder, title } of [...groups(), ...(strays.length ? [{ folder: '?', title: 'folders missing from the layer table' }] : [])]) {
		const rows = folder === '?' ? strays : modules.filter((entry) => folderOf(entry.module) === folder);
		if (!rows.length) continue;
		out.push(`### ${title}`, '', '| module | what it models | upstream |', '|---|---|---|');
		for (const entry of rows) {
			const upstream = entry.nothing !== undefined
				? `*nothing upstream*: ${entry.nothing.replace(/\|/g, '\\|')}`
				: entry.upstream.map((file) => `[${upstreamLabel(file)}](${upstreamUrl(file)})`).join('<br>') || '**missing**';
			out.push(`| \`${entry.module}\` | ${shorten(entry.models)} | ${upstream} |`);
		}
		out.push('');
	}
	return out.join('\n').trimEnd() + '\n';
}

/** The README's generated section (between the markers), or undefined when the markers are missing. */
export function readmeSection(readme: string): string | undefined {
	const start = readme.indexOf(START_MARKER);
	const end = readme.indexOf(END_MARKER);
	if (start < 0 || end < start) return undefined;
	return readme.slice(start + START_MARKER.length, end).replace(/^\n/, '');
}

/** The README with its generated section replaced. */
export function withSection(readme: string, section: string): string {
	const start = readme.indexOf(START_MARKER);
	const end = readme.indexOf(END_MARKER);
	if (start < 0 || end < start) throw new Error(`${README} has no ${START_MARKER} ... ${END_MARKER} section`);
	return readme.slice(0, start + START_MARKER.length) + '\n' + section + readme.slice(end);
}

/** The lines that differ between two texts, as `-`/`+` lines (the first few). */
function lineDiff(expected: string, actual: string, limit = 20): string[] {
	const want = expected.split('\n');
	const have = actual.split('\n');
	const wantSet = new Set(want);
	const haveSet = new Set(have);
	const lines = [...have.filter((line) => !wantSet.has(line)).map((line) => `- ${line}`), ...want.filter((line) => !haveSet.has(line)).map((line) => `+ ${line}`)];
	if (!lines.length) lines.push('(the same lines, in another order)');
	return lines.length > limit ? [...lines.slice(0, limit), `... and ${lines.length - limit} more`] : lines;
}

/** Everything `--check` complains about: header problems, then any difference between the README and the map now. */
export function checkCodeMap(sources = SOURCES, readmePath = README): string[] {
	const modules = readModules(sources);
	const problems = modules.flatMap((entry) => entry.problems.map((problem) => `sim-core/src/${entry.module}: ${problem}`));
	const section = readmeSection(readFileSync(readmePath, 'utf8'));
	const expected = renderCodeMap(modules);
	if (section === undefined) problems.push(`sim-core/README.md: no ${START_MARKER} ... ${END_MARKER} section`);
	else if (section !== expected) problems.push('sim-core/README.md: the code map is out of date (run npm run code-map):', ...lineDiff(expected, section).map((line) => `  ${line}`));
	return problems;
}

function main(argv: string[]): number {
	if (argv.includes('--check')) {
		const problems = checkCodeMap();
		for (const problem of problems) process.stderr.write(`${problem}\n`);
		return problems.length ? 1 : 0;
	}
	const map = renderCodeMap(readModules());
	if (argv.includes('--write')) {
		writeFileSync(README, withSection(readFileSync(README, 'utf8'), map));
		process.stdout.write(`wrote the code map into ${relative(process.cwd(), README)}\n`);
		return 0;
	}
	process.stdout.write(map);
	return 0;
}

if (import.meta.main) process.exit(main(process.argv.slice(2)));
