/**
 * `kubectl version`: the client's version, the Kustomize it embeds, and the
 * server's version from GET /version, with the version skew warning.
 *
 * Mirrors staging/src/k8s.io/kubectl/pkg/cmd/version/version.go (Run),
 * staging/src/k8s.io/kubectl/pkg/cmd/version/skew_warning.go
 * (getVersionSkewWarning),
 * staging/src/k8s.io/apimachinery/pkg/version/types.go (Info).
 */
import type { CommandResult } from '../../shell/types.ts';
import { stringifyYaml } from '../../yaml/index.ts';
import type { KubectlCommand, KubectlInvocation } from '../kubectl.ts';
import { apiErrorMessage, errorText } from '../resource-args.ts';
import { discoveryReachable } from './api-resources.ts';
import { BUILD_INFO } from '../../api/version.ts';

/** The kustomize module kubectl v1.36 is built with (k8s.io/kubectl v0.36.3 go.mod: sigs.k8s.io/kustomize/kustomize/v5 v5.8.1). */
const KUSTOMIZE_VERSION = 'v5.8.1';
/** The largest supported minor difference between kubectl and the API server (skew_warning.go supportedMinorVersionSkew). */
const SUPPORTED_MINOR_VERSION_SKEW = 1;

/** Build metadata of the simulated binaries (api/version.ts). */
const BUILD = BUILD_INFO;

/** `v1.36.3` → [1, 36], or undefined if it is not a semantic version. */
function majorMinor(gitVersion: string): [number, number] | undefined {
	const m = /^v?(\d+)\.(\d+)\.\d+/.exec(gitVersion);
	return m ? [Number(m[1]), Number(m[2])] : undefined;
}

/** apimachinery version.Info in struct order; the server adds its emulation and minimum compatibility versions. */
function versionInfo(gitVersion: string, server: boolean): Record<string, string> {
	const [major, minor] = majorMinor(gitVersion) ?? [0, 0];
	const info: Record<string, string> = { major: String(major), minor: String(minor) };
	if (server) {
		// A v1.N API server emulates v1.N and stays compatible with v1.(N-1) by default (compatibility versions, KEP-4330).
		info.emulationMajor = String(major);
		info.emulationMinor = String(minor);
		info.minCompatibilityMajor = String(major);
		info.minCompatibilityMinor = String(minor - 1);
	}
	return { ...info, gitVersion, ...BUILD };
}

/** Runs `kubectl version`. */
export function runVersion(invocation: KubectlInvocation): CommandResult {
	const { args, env } = invocation;
	const flags = args.flags;
	const output = typeof flags.output === 'string' ? flags.output : '';
	const clientOnly = flags.client === true;
	if (!clientOnly && args.positionals.length) return { stdout: '', stderr: errorText([`extra arguments: [${args.positionals.join(' ')}]`]), exitCode: 1 };
	if (output && output !== 'yaml' && output !== 'json') return { stdout: '', stderr: errorText(["--output must be 'yaml' or 'json'"]), exitCode: 1 };

	let serverVersion: string | undefined;
	let serverError: string | undefined;
	if (!clientOnly) {
		if (env.serverVersion) {
			const answer = env.serverVersion();
			if (answer.ok) serverVersion = answer.object.gitVersion;
			else serverError = apiErrorMessage(answer, env.serverUrl);
		} else {
			serverError = discoveryReachable(invocation);
			if (!serverError) serverVersion = env.clientVersion;
		}
	}

	const client = versionInfo(env.clientVersion, false);
	let stdout = '';
	if (output === '') {
		stdout += `Client Version: ${env.clientVersion}\nKustomize Version: ${KUSTOMIZE_VERSION}\n`;
		if (serverVersion) stdout += `Server Version: ${serverVersion}\n`;
	} else {
		const doc: Record<string, unknown> = { clientVersion: client, kustomizeVersion: KUSTOMIZE_VERSION };
		if (serverVersion) doc.serverVersion = versionInfo(serverVersion, true);
		// json.MarshalIndent with two spaces, or sigs.k8s.io/yaml; either way printed with Fprintln.
		stdout += output === 'json' ? `${JSON.stringify(doc, null, 2)}\n` : `${stringifyYaml(doc)}\n`;
	}
	let stderr = '';
	if (serverVersion) {
		const c = majorMinor(env.clientVersion);
		const s = majorMinor(serverVersion);
		if (c && s && (c[0] !== s[0] || Math.abs(c[1] - s[1]) > SUPPORTED_MINOR_VERSION_SKEW)) {
			stderr += `Warning: version difference between client (${c[0]}.${c[1]}) and server (${s[0]}.${s[1]}) exceeds the supported minor version skew of +/-${SUPPORTED_MINOR_VERSION_SKEW}\n`;
		}
	}
	if (serverError) return { stdout, stderr: stderr + errorText([serverError]), exitCode: 1 };
	return { stdout, stderr, exitCode: 0 };
}

export const versionCommand: KubectlCommand = {
	name: 'version',
	summary: 'Print the client and server version information',
	usage: 'kubectl version [flags] [options]',
	flags: [
		{ name: 'client', kind: 'bool' },
		{ name: 'output', short: 'o', kind: 'string' },
	],
	run: runVersion,
};
