/**
 * `kubeadm` on the machines, for what a running cluster's operator uses it
 * for: `kubeadm certs check-expiration` (when each certificate kubeadm
 * issued expires, by this machine's clock) and `kubeadm certs renew
 * <name>|all` (a new certificate from the local CA, same subject, dated
 * now, for the ClusterConfiguration's certificateValidityPeriod; the
 * components keep the old one until they restart), and `kubeadm version`.
 * Both certs commands first read the ClusterConfiguration from the
 * kubeadm-config ConfigMap with /etc/kubernetes/admin.conf, and fall back
 * to the defaults when the cluster does not answer: a cluster whose
 * certificates have expired is exactly when renew must still work.
 *
 * Building a cluster (`init`, `join`, `reset`, `upgrade`) is what created
 * this sandbox before the reader arrived; those commands say so.
 *
 * Mirrors cmd/kubeadm/app/cmd/certs.go (newCmdCertsExpiration,
 * getRenewSubCommands, renewCert, getInternalCfg),
 * cmd/kubeadm/app/phases/certs/renewal/manager.go (RenewUsingLocalCA,
 * GetCertificateExpirationInfo), cmd/kubeadm/app/cmd/version.go.
 */
import type { MemoryFs } from '../../host/fs.ts';
import { parseCertificate } from '../../host/pem.ts';
import { tryParseGoDurationMs } from '../../golang/duration.ts';
import { TabWriter } from '../../golang/tabwriter.ts';
import { shortHumanDuration } from '../../api/duration.ts';
import { civilTime } from '../../golang/time.ts';
import type { CommandContext, CommandHandler, CommandResult } from '../../shell/types.ts';
import { DEFAULT_CERTIFICATE_VALIDITY_MS, KUBEADM_CAS, KUBEADM_CERTIFICATES, kubeconfigClientCertificate, signedCertificate, withClientCertificate, type KubeadmCertificate } from './pki.ts';

/** What kubeadm needs from the cluster. */
export interface KubeadmDeps {
	/** kubeadm's version (`v1.36.3`) and build facts for `kubeadm version`. */
	version: { gitVersion: string; gitCommit: string; buildDate: string; goVersion: string; platform: string };
	/**
	 * The ClusterConfiguration's certificateValidityPeriod as the
	 * kubeadm-config ConfigMap holds it, fetched with the machine's
	 * /etc/kubernetes/admin.conf; undefined when that fails (no file, the API
	 * server down or refusing the certificate).
	 */
	clusterCertificateValidity(ctx: CommandContext): string | undefined;
	/** Lets virtual time pass (a kubeadm run starts and reads the cluster before it reports). */
	elapse(ms: number): void;
}

/** What a kubeadm run takes before it reads the clock for its report: the binary's start and the ConfigMap read. */
const RUN_MS = 50;

const res = (stdout: string, stderr = '', exitCode = 0): CommandResult => ({ stdout, stderr, exitCode });

const CERTS_HELP = `Commands related to handling Kubernetes certificates

Usage:
  kubeadm certs [flags]
  kubeadm certs [command]

Aliases:
  certs, certificates

Available Commands:
  certificate-key  Generate certificate keys
  check-expiration Check certificates expiration for a Kubernetes cluster
  generate-csr     Generate keys and certificate signing requests
  renew            Renew certificates for a Kubernetes cluster

Flags:
  -h, --help   help for certs

Global Flags:
      --add-dir-header           If true, adds the file directory to the header of the log messages
      --log-file string          If non-empty, use this log file (no effect when -logtostderr=true)
      --rootfs string            The path to the 'real' host root filesystem. This will cause kubeadm to chroot into the provided path.
      --skip-headers             If true, avoid header prefixes in the log messages
  -v, --v Level                  number for the log level verbosity

Use "kubeadm certs [command] --help" for more information about a command.
`;

const KUBEADM_HELP = `

    ┌──────────────────────────────────────────────────────────┐
    │ KUBEADM                                                  │
    │ Easily bootstrap a secure Kubernetes cluster             │
    │                                                          │
    │ Please give us feedback at:                              │
    │ https://github.com/kubernetes/kubeadm/issues             │
    └──────────────────────────────────────────────────────────┘

Example usage:

    Create a two-machine cluster with one control-plane node
    (which controls the cluster), and one worker node
    (where your workloads, like Pods and Deployments run).

    ┌──────────────────────────────────────────────────────────┐
    │ On the first machine:                                    │
    ├──────────────────────────────────────────────────────────┤
    │ control-plane# kubeadm init                              │
    └──────────────────────────────────────────────────────────┘

    ┌──────────────────────────────────────────────────────────┐
    │ On the second machine:                                   │
    ├──────────────────────────────────────────────────────────┤
    │ worker# kubeadm join <arguments-returned-from-init>      │
    └──────────────────────────────────────────────────────────┘

    You can then repeat the second step on as many other machines as you like.

Usage:
  kubeadm [command]

Available Commands:
  certs       Commands related to handling Kubernetes certificates
  completion  Output shell completion code for the specified shell (bash or zsh)
  config      Manage configuration for a kubeadm cluster persisted in a ConfigMap in the cluster
  help        Help about any command
  init        Run this command in order to set up the Kubernetes control plane
  join        Run this on any machine you wish to join an existing cluster
  kubeconfig  Kubeconfig file utilities
  reset       Performs a best effort revert of changes made to this host by 'kubeadm init' or 'kubeadm join'
  token       Manage bootstrap tokens
  upgrade     Upgrade your cluster smoothly to a newer version with this command
  version     Print the version of kubeadm

Flags:
      --add-dir-header           If true, adds the file directory to the header of the log messages
  -h, --help                     help for kubeadm
      --log-file string          If non-empty, use this log file (no effect when -logtostderr=true)
      --rootfs string            The path to the 'real' host root filesystem. This will cause kubeadm to chroot into the provided path.
      --skip-headers             If true, avoid header prefixes in the log messages
  -v, --v Level                  number for the log level verbosity

Use "kubeadm [command] --help" for more information about a command.
`;

/** Go's `Jan 02, 2006 15:04 MST` in UTC. */
function expiresText(ms: number): string {
	const t = civilTime(ms);
	const month = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'][t.month - 1];
	const p = (n: number) => String(n).padStart(2, '0');
	return `${month} ${p(t.day)}, ${t.year} ${p(t.hour)}:${p(t.minute)} UTC`;
}

/** The certificate a handler covers, as PEM: the .crt file, or the one the kubeconfig embeds; undefined when missing. */
function readCertificate(fs: MemoryFs, cert: { path: string; kubeconfig?: boolean }): string | undefined {
	if (!fs.exists(cert.path) || fs.isDir(cert.path)) return undefined;
	const text = fs.readFile(cert.path);
	return cert.kubeconfig ? kubeconfigClientCertificate(text) : text;
}

/** getInternalCfg: the configuration lines, then the validity renewals use. */
function loadConfiguration(ctx: CommandContext, deps: KubeadmDeps, prefix: string): { out: string; validityMs: number } {
	const period = deps.clusterCertificateValidity(ctx);
	if (period === undefined) return { out: `[${prefix}] Error reading configuration from the Cluster. Falling back to default configuration\n\n`, validityMs: DEFAULT_CERTIFICATE_VALIDITY_MS };
	const out = `[${prefix}] Reading configuration from the "kubeadm-config" ConfigMap in namespace "kube-system"...\n[${prefix}] Use 'kubeadm init phase upload-config kubeadm --config your-config-file' to re-upload it.\n\n`;
	return { out, validityMs: tryParseGoDurationMs(period) ?? DEFAULT_CERTIFICATE_VALIDITY_MS };
}

function checkExpiration(ctx: CommandContext, deps: KubeadmDeps, nowMs: number): CommandResult {
	const { out } = loadConfiguration(ctx, deps, 'check-expiration');
	const fs = ctx.host.fs;
	// tabwriter.NewWriter(out, 10, 4, 3, ' ', 0)
	const w = new TabWriter({ minwidth: 10, tabwidth: 4, padding: 3, padchar: ' ', flags: 0 });
	w.write('CERTIFICATE\tEXPIRES\tRESIDUAL TIME\tCERTIFICATE AUTHORITY\tEXTERNALLY MANAGED\n');
	for (const cert of KUBEADM_CERTIFICATES) {
		const fields = (() => {
			const pem = readCertificate(fs, cert);
			return pem === undefined ? undefined : parseCertificate(pem);
		})();
		if (!fields || fields.notAfter === undefined) {
			w.write(`!MISSING! ${cert.name}\t\t\t\t\n`);
			continue;
		}
		w.write(`${cert.name}\t${expiresText(fields.notAfter)}\t${shortHumanDuration(fields.notAfter - nowMs)}\t${cert.ca}\t${'no'.padEnd(8)}\n`);
	}
	w.write('\n');
	w.write('CERTIFICATE AUTHORITY\tEXPIRES\tRESIDUAL TIME\tEXTERNALLY MANAGED\n');
	for (const ca of KUBEADM_CAS) {
		const pem = readCertificate(fs, ca);
		const fields = pem === undefined ? undefined : parseCertificate(pem);
		if (!fields || fields.notAfter === undefined) {
			w.write(`!MISSING! ${ca.name}\t\t\t\n`);
			continue;
		}
		w.write(`${ca.name}\t${expiresText(fields.notAfter)}\t${shortHumanDuration(fields.notAfter - nowMs)}\t${'no'.padEnd(8)}\n`);
	}
	return res(out + w.flush());
}

/** RenewUsingLocalCA for one certificate: the new file, then what renewCert prints. */
function renewOne(fs: MemoryFs, cert: KubeadmCertificate, nowMs: number, validityMs: number): string {
	const old = readCertificate(fs, cert);
	const fields = old === undefined ? undefined : parseCertificate(old);
	if (!fields) return `MISSING! ${cert.longName}\n`;
	const pem = signedCertificate(fields.subject, cert.ca, nowMs, validityMs);
	if (cert.kubeconfig) fs.writeFile(cert.path, withClientCertificate(fs.readFile(cert.path), pem));
	else fs.writeFile(cert.path, pem);
	return `${cert.longName} renewed\n`;
}

const RENEW_HELP = (names: string[]) => `This command is not meant to be run on its own. See list of available subcommands.

Usage:
  kubeadm certs renew [flags]
  kubeadm certs renew [command]

Available Commands:
${['all', ...names].map((n) => `  ${n.padEnd(25)}${n === 'all' ? 'Renew all available certificates' : `Renew the ${KUBEADM_CERTIFICATES.find((c) => c.name === n)!.longName}`}`).join('\n')}

Flags:
  -h, --help   help for renew

Use "kubeadm certs renew [command] --help" for more information about a command.
`;

function renew(ctx: CommandContext, deps: KubeadmDeps, args: string[], nowMs: number): CommandResult {
	const names = KUBEADM_CERTIFICATES.map((c) => c.name);
	const target = args.find((a) => !a.startsWith('-'));
	if (!target || args.includes('-h') || args.includes('--help')) return res(RENEW_HELP(names));
	if (target !== 'all' && !names.includes(target)) return res('', `error: unknown command "${target}" for "kubeadm certs renew"\nTo see the stack trace of this error execute with --v=5 or higher\n`, 1);
	if (ctx.host.user !== 'root') return res('', `error: open ${KUBEADM_CERTIFICATES[0].path}: permission denied\nTo see the stack trace of this error execute with --v=5 or higher\n`, 1);
	const { out, validityMs } = loadConfiguration(ctx, deps, 'renew');
	let text = out;
	for (const cert of KUBEADM_CERTIFICATES) if (target === 'all' || cert.name === target) text += renewOne(ctx.host.fs, cert, nowMs, validityMs);
	if (target === 'all') text += '\nDone renewing certificates. You must restart the kube-apiserver, kube-controller-manager, kube-scheduler and etcd, so that they can use the new certificates.\n';
	return res(text);
}

export function createKubeadm(deps: KubeadmDeps): CommandHandler {
	return (ctx) => {
		const args = ctx.argv.slice(1);
		const [command, sub, ...rest] = args;
		if (command === 'certs' || command === 'certificates') deps.elapse(RUN_MS);
		const nowMs = ctx.shell.clock?.(ctx.host.kind === 'node' ? ctx.host.name : undefined) ?? 0;
		if (!command || command === 'help' || command === '-h' || command === '--help') return res(KUBEADM_HELP);
		if (command === 'version') {
			const v = deps.version;
			if (args.includes('-o=short') || (args.includes('-o') && args[args.indexOf('-o') + 1] === 'short') || args.includes('--output=short')) return res(`${v.gitVersion}\n`);
			const [major, minor] = v.gitVersion.replace(/^v/, '').split('.');
			return res(`kubeadm version: &version.Info{Major:"${major}", Minor:"${minor}", EmulationMajor:"", EmulationMinor:"", MinCompatibilityMajor:"", MinCompatibilityMinor:"", GitVersion:"${v.gitVersion}", GitCommit:"${v.gitCommit}", GitTreeState:"clean", BuildDate:"${v.buildDate}", GoVersion:"${v.goVersion}", Compiler:"gc", Platform:"${v.platform}"}\n`);
		}
		if (command === 'certs' || command === 'certificates') {
			if (!sub || sub === '-h' || sub === '--help') return res(CERTS_HELP);
			if (sub === 'check-expiration') return checkExpiration(ctx, deps, nowMs);
			if (sub === 'renew') return renew(ctx, deps, rest, nowMs);
			return res('', `error: unknown command "${sub}" for "kubeadm certs"\nTo see the stack trace of this error execute with --v=5 or higher\n`, 1);
		}
		if (['init', 'join', 'reset', 'upgrade', 'token', 'config', 'kubeconfig', 'completion'].includes(command)) {
			return res('', `kubeadm ${command}: not available in this sandbox: kubeadm init and join built this cluster before you arrived; here kubeadm runs its certs and version commands\n`, 1);
		}
		return res('', `error: unknown command "${command}" for "kubeadm"\nTo see the stack trace of this error execute with --v=5 or higher\n`, 1);
	};
}
