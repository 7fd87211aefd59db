/**
 * What every crictl command gets when it runs: its parsed flags, the run's
 * output, and the two services it may connect to. A command connects
 * lazily, as the cri-tools actions do (getRuntimeService /
 * getImageService at the top of each action), so the connection warnings
 * and errors appear exactly where crictl prints them.
 *
 * Mirrors kubernetes-sigs/cri-tools cmd/crictl/main.go (getRuntimeService,
 * getImageService).
 */
import { commandHelp, flagBool, type CommandSpec, type ParsedFlags } from './cli.ts';
import { imageService, runtimeService, type Endpoints } from './connect.ts';
import type { Invocation } from './session.ts';
import type { CrictlDeps, CrictlRuntime } from './types.ts';

export class Run {
	constructor(
		readonly inv: Invocation,
		readonly spec: CommandSpec,
		readonly flags: ParsedFlags,
		readonly endpoints: Endpoints,
		readonly deps: CrictlDeps,
	) {}

	get args(): string[] {
		return this.flags.args;
	}

	/** getRuntimeService. */
	runtime(): CrictlRuntime {
		return runtimeService(this.inv, this.deps.runtime, this.endpoints);
	}

	/** getImageService. */
	images(): CrictlRuntime {
		return imageService(this.inv, this.deps.runtime, this.endpoints);
	}

	bool(name: string): boolean {
		return flagBool(this.flags, name);
	}

	string(name: string): string {
		const v = this.flags.values.get(name);
		if (typeof v === 'string') return v;
		const spec = this.spec.flags.find((f) => f.name === name);
		for (const envName of spec?.envVars ?? []) if (this.inv.ctx.env[envName]) return this.inv.ctx.env[envName];
		return spec?.value === undefined ? '' : String(spec.value);
	}

	int(name: string): number {
		return Number(this.string(name) || 0);
	}

	strings(name: string): string[] {
		const v = this.flags.values.get(name);
		return Array.isArray(v) ? v : [];
	}

	isSet(name: string): boolean {
		return this.flags.set.has(name);
	}

	/** cli.ShowSubcommandHelp: the command's help on stdout, exit 0. */
	help(): number {
		this.inv.print(commandHelp(this.spec));
		return 0;
	}
}

/** A crictl command: its declaration and its action (returns the exit status, or ends the run through Invocation). */
export interface Command {
	spec: CommandSpec;
	run(r: Run): number;
}

/** `key=value` label flags (parseLabelStringSlice). */
export function parseLabels(r: Run, name = 'label'): Record<string, string> | undefined {
	const out: Record<string, string> = {};
	const given = r.strings(name);
	if (!given.length) return undefined;
	for (const s of given) {
		const pair = s.split('=');
		if (pair.length !== 2) r.inv.fatal(`incorrectly specified label: ${s}`);
		out[pair[0]] = pair[1];
	}
	return out;
}

/** Go regexp.MatchString with crictl's rule that an empty pattern matches and a bad one does not. */
export function matchesRegex(pattern: string, target: string): boolean {
	if (pattern === '') return true;
	try {
		return new RegExp(pattern).test(target);
	} catch {
		return false;
	}
}

/** getTruncatedID: strip the prefix, keep 13 characters. */
export function truncatedId(id: string, prefix = ''): string {
	const rest = prefix && id.startsWith(prefix) ? id.slice(prefix.length) : id;
	// util.go truncatedIDLen.
	return rest.length > 13 ? rest.slice(0, 13) : rest;
}

/** The newest-first order and `--latest`/`--last` cut of crictl's list commands. */
export function newestFirst<T>(items: T[], createdMs: (t: T) => number, latest: boolean, last: number): T[] {
	const sorted = [...items].sort((a, b) => createdMs(b) - createdMs(a));
	let n = sorted.length;
	if (latest) n = 1;
	if (last > 0) n = last;
	return sorted.slice(0, Math.min(n, sorted.length));
}
