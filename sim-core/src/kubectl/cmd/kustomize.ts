/**
 * `kubectl kustomize [DIR]` prints the build of the kustomization in DIR
 * (default `.`) as YAML documents, keys sorted as kustomize writes them;
 * `kubectl apply -k DIR` applies the same build. kustomize's deprecation
 * warnings go to stderr. The build itself is ../kustomize/build.ts; the
 * other commands with `-k` (get, describe, diff, delete...) read the same
 * build as a manifest on stdin (kubectl.ts).
 *
 * Mirrors staging/src/k8s.io/kubectl/pkg/cmd/kustomize/kustomize.go.
 */
import type { KubectlCommand, KubectlEnvironment, KubectlInvocation } from '../kubectl.ts';
import { checkErr, plain, usageError } from './check-err.ts';
import { joinPath, kustomize } from '../kustomize/build.ts';
import { stringifyYaml } from '../../yaml/index.ts';
import type { CommandResult } from '../../shell/types.ts';

/** The build of the kustomization at `dir` (relative to the working directory) as YAML, or kustomize's error; warnings as stderr text. */
export function kustomizeDir(env: KubectlEnvironment, dir: string): { yaml: string; warnings: string } | { error: string; warnings: string } {
	const cwd = env.workingDir ?? '/';
	const absolute = dir.startsWith('/') ? joinPath(dir) : joinPath(cwd, dir);
	const built = kustomize(absolute, {
		readFile: (path) => env.readFile(path),
		listDir: (path) => env.listDir?.(path),
	});
	if ('error' in built) return { error: built.error, warnings: '' };
	const warnings = built.warnings.map((w) => `${w}\n`).join('');
	return { yaml: built.objects.map((o) => stringifyYaml(o)).join('---\n'), warnings };
}

function run(inv: KubectlInvocation): CommandResult {
	const words = inv.args.positionals;
	if (words.length > 1) return checkErr(usageError('kubectl kustomize', 'specify one path to kustomization.yaml'));
	const built = kustomizeDir(inv.env, words[0] ?? '.');
	if ('error' in built) return checkErr(plain(built.error), '', built.warnings);
	return { stdout: built.yaml, stderr: built.warnings, exitCode: 0, chunks: [{ fd: 2, text: built.warnings }, { fd: 1, text: built.yaml }].filter((c) => c.text) as CommandResult['chunks'] };
}

export const kustomizeCommand: KubectlCommand = {
	name: 'kustomize',
	summary: 'Build a kustomization target from a directory or URL',
	usage: 'kubectl kustomize DIR [flags]',
	flags: [
		{ name: 'output', short: 'o', kind: 'string' },
		{ name: 'enable-helm', kind: 'bool' },
		{ name: 'enable-alpha-plugins', kind: 'bool' },
		{ name: 'load-restrictor', kind: 'string', default: 'LoadRestrictionsRootOnly' },
	],
	run,
};
