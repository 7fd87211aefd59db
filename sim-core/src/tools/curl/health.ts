/**
 * kube-apiserver's probe endpoints /healthz, /livez and /readyz, as
 * apiserver's healthz handler writes them: `ok` (no newline) when every
 * check passes; with `?verbose`, one `[+]<check> ok` line per check and
 * `<name> check passed`; `?exclude=<check>` prints `[+]<check> excluded:
 * ok`. When a check fails the reply is 500 and always verbose, through
 * http.Error (text/plain, a trailing newline): `[-]etcd failed: reason
 * withheld` ... `readyz check failed`. `/<probe>/<check>` runs one check:
 * `ok`, or 500 `internal server error: <err>`.
 *
 * The check list is a v1.36 kube-apiserver's with kubeadm's flags (no KMS),
 * including every check test/e2e/apimachinery/health_handlers.go requires.
 *
 * Mirrors staging/src/k8s.io/apiserver/pkg/server/healthz/healthz.go,
 * test/e2e/apimachinery/health_handlers.go (the checks a server must have).
 */

/** The post-start hooks of kube-apiserver, in the order it reports them. */
const POST_START_HOOKS = [
	'start-kube-apiserver-admission-initializer',
	'generic-apiserver-start-informers',
	'priority-and-fairness-config-consumer',
	'priority-and-fairness-filter',
	'storage-object-count-tracker-hook',
	'start-apiextensions-informers',
	'start-apiextensions-controllers',
	'crd-informer-synced',
	'start-system-namespaces-controller',
	'start-cluster-authentication-info-controller',
	'start-kube-apiserver-identity-lease-controller',
	'start-kube-apiserver-identity-lease-garbage-collector',
	'start-legacy-token-tracking-controller',
	'start-service-ip-repair-controllers',
	'rbac/bootstrap-roles',
	'scheduling/bootstrap-system-priority-classes',
	'priority-and-fairness-config-producer',
	'bootstrap-controller',
	'start-kubernetes-service-cidr-controller',
	'aggregator-reload-proxy-client-cert',
	'start-kube-aggregator-informers',
	'apiservice-status-available-controller',
	'apiservice-registration-controller',
	'apiservice-discovery-controller',
	'kube-apiserver-autoregistration',
].map((hook) => `poststarthook/${hook}`);

/** Checks per probe: livez and healthz share theirs; readyz adds etcd-readiness, informer-sync and shutdown. */
export function probeChecks(probe: 'healthz' | 'livez' | 'readyz'): string[] {
	const base = ['ping', 'log', 'etcd'];
	const tail = [...POST_START_HOOKS, 'autoregister-completion', 'poststarthook/apiservice-openapi-controller', 'poststarthook/apiservice-openapiv3-controller'];
	if (probe === 'readyz') return [...base, 'etcd-readiness', 'informer-sync', ...tail, 'shutdown'];
	return [...base, ...tail];
}

/** Why a check fails now (etcd unreachable), or undefined when it passes. */
function checkError(check: string, etcdHealthy: boolean): string | undefined {
	if (etcdHealthy) return undefined;
	if (check === 'etcd') return 'error getting data from etcd: context deadline exceeded';
	if (check === 'etcd-readiness') return 'etcd readiness check failed: context deadline exceeded';
	return undefined;
}

/** The body and status of a probe request. */
export function probe(name: 'healthz' | 'livez' | 'readyz', subcheck: string | undefined, query: ReadonlyMap<string, string[]>, etcdHealthy: boolean): { status: number; body: string } | undefined {
	const checks = probeChecks(name);
	if (subcheck !== undefined) {
		if (!checks.includes(subcheck)) return undefined;
		const error = checkError(subcheck, etcdHealthy);
		return error ? { status: 500, body: `internal server error: ${error}\n` } : { status: 200, body: 'ok' };
	}
	const excluded = new Set(query.get('exclude') ?? []);
	let lines = '';
	let failed = false;
	for (const check of checks) {
		if (excluded.has(check)) {
			excluded.delete(check);
			lines += `[+]${check} excluded: ok\n`;
			continue;
		}
		if (checkError(check, etcdHealthy)) {
			// The reason stays out of the public reply; it goes to the server's log.
			lines += `[-]${check} failed: reason withheld\n`;
			failed = true;
		} else lines += `[+]${check} ok\n`;
	}
	if (excluded.size) lines += `warn: some health checks cannot be excluded: no matches for ${[...excluded].sort().map((e) => JSON.stringify(e)).join(',')}\n`;
	if (failed) return { status: 500, body: `${lines}${name} check failed\n` };
	if (!query.has('verbose')) return { status: 200, body: 'ok' };
	return { status: 200, body: `${lines}${name} check passed\n` };
}
