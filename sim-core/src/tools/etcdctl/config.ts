/**
 * etcdctl's client configuration step, which every command that talks to
 * etcd runs first:
 * 1. ETCDCTL_<FLAG> environment variables fill inherited flags not given on
 *    the command line (pkg/flags/flag.go SetPflagsFromEnv); an ETCDCTL_
 *    variable that matches no flag gets zap's "unrecognized environment
 *    variable" warning (flag.go:94). That includes ETCDCTL_API: etcdctl 3.6
 *    no longer reads it (v3 is the only API since 3.4 made it the default).
 *    A variable set for a flag also given on the command line is fatal
 *    (flag.go:86). The real fatal line also carries a Go stack trace, left
 *    out here.
 * 2. --cert, --key and --cacert may not be given empty (exit 128), then the
 *    output format is checked (`Error: unsupported output format`, exit 4).
 * 3. The TLS files are read (exit 128 on failure, see client.ts).
 *
 * Mirrors etcd-io/etcd etcdctl/ctlv3/command/global.go (clientConfigFromCmd,
 * mustClient), etcd-io/etcd pkg/flags/flag.go (SetPflagsFromEnv).
 */
import { zapLine } from '../common/zap.ts';
import { ConfigError, loadTls, type ClientSettings } from './client.ts';
import { flagsOf } from './commands.ts';
import { flagToEnv } from './flags.ts';
import { tryParseGoDurationMs } from '../../golang/duration.ts';
import type { OutputFormat } from './printers.ts';
import { EXIT, Exit, type Invocation } from './session.ts';

const FORMATS: readonly string[] = ['simple', 'json', 'fields', 'table', 'protobuf'];

/** Applies ETCDCTL_* variables to the inherited flags and writes zap's warnings. */
function applyEnvironment(inv: Invocation): void {
	const { inherited } = flagsOf(inv.path);
	const byEnv = new Map(inherited.map((spec) => [flagToEnv(spec.name), spec]));
	const isWatch = inv.path.node.run === 'watch';
	for (const [key, value] of Object.entries(inv.ctx.env)) {
		if (!key.startsWith('ETCDCTL_')) continue;
		// watch registers these as discard-only flags so they are not reported (global.go).
		if (isWatch && (key === 'ETCDCTL_WATCH_KEY' || key === 'ETCDCTL_WATCH_RANGE_END')) continue;
		const spec = byEnv.get(key);
		if (spec && inv.flags.changed.has(spec.name)) {
			inv.stderr += zapLine({
				level: 'fatal',
				ts: inv.timestamp(),
				caller: 'flags/flag.go:86',
				msg: 'conflicting environment variable is shadowed by corresponding command-line flag (either unset environment variable or disable flag))',
				fields: [['environment-variable', key]],
			});
			throw new Exit(EXIT.error);
		}
		if (spec && value !== '') {
			inv.flags.values.set(spec.name, value);
			continue;
		}
		if (spec) continue;
		inv.stderr += zapLine({ level: 'warn', ts: inv.timestamp(), caller: 'flags/flag.go:94', msg: 'unrecognized environment variable', fields: [['environment-variable', `${key}=${value}`]] });
	}
}

/** The output format, checked as initDisplayFromCmd checks it. */
function outputFormat(inv: Invocation): OutputFormat {
	const format = inv.value('write-out');
	if (!FORMATS.includes(format)) throw new Exit(EXIT.badFeature, 'unsupported output format');
	return format as OutputFormat;
}

/** clientConfigFromCmd + NewClientConfig: environment, output format, then the TLS files. */
export function clientSettings(inv: Invocation): { settings: ClientSettings; format: OutputFormat } {
	applyEnvironment(inv);
	const cert = inv.value('cert');
	const key = inv.value('key');
	const cacert = inv.value('cacert');
	// keyAndCertFromCmd rejects an explicitly empty value.
	for (const [name, value] of [
		['cert', cert],
		['key', key],
		['cacert', cacert],
	] as const) {
		if (value === '' && inv.flags.changed.has(name)) throw new Exit(EXIT.badArgs, `empty string is passed to --${name} option`);
	}
	const format = outputFormat(inv);
	const settings: ClientSettings = {
		endpoints: inv
			.value('endpoints')
			.split(',')
			.map((e) => e.trim())
			.filter(Boolean),
		cert,
		key,
		cacert,
		insecureTransport: inv.bool('insecure-transport'),
		insecureSkipVerify: inv.bool('insecure-skip-tls-verify'),
		commandTimeoutMs: tryParseGoDurationMs(inv.value('command-timeout')) ?? 5000,
	};
	try {
		loadTls(settings, inv.ctx.host);
	} catch (error) {
		if (error instanceof ConfigError) throw new Exit(EXIT.badArgs, error.message);
		throw error;
	}
	return { settings, format };
}
