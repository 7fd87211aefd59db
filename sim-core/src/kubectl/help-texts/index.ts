/**
 * What `kubectl CMD --help` says beyond its one-line summary: the longer
 * description, examples and each option's meaning, by command path (`get`,
 * `rollout status`, `create secret generic`). Written for this project in
 * its own words; kubectl's own help text is not copied. A command without
 * an entry prints its summary and usage only.
 *
 * Mirrors nothing upstream: the simulator's own help texts.
 */
import { ADVANCED_HELP } from './advanced.ts';
import { BASIC_HELP } from './basic.ts';
import { CLUSTER_HELP } from './cluster.ts';
import { DEPLOY_HELP } from './deploy.ts';
import { TROUBLESHOOTING_HELP } from './troubleshooting.ts';

export interface HelpText {
	/** The description `--help` prints first, instead of the summary. */
	long?: string;
	/** The Examples section: lines as printed, each indented by two spaces. */
	examples?: string;
	/** Each option's meaning, by its long name. */
	flags?: Readonly<Record<string, string>>;
}

/** Every command's help text, by command path. */
export const HELP_TEXTS: Readonly<Record<string, HelpText>> = {
	...BASIC_HELP,
	...DEPLOY_HELP,
	...TROUBLESHOOTING_HELP,
	...CLUSTER_HELP,
	...ADVANCED_HELP,
};
