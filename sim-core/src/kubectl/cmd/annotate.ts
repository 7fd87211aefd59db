/**
 * `kubectl annotate TYPE NAME key=value [key2-] [--overwrite] [--list]`:
 * like `kubectl label` (./label.ts) but for annotations, always printing
 * `pod/web annotated`. Without --overwrite an existing value is refused:
 * `error: --overwrite is false but found the following declared
 * annotation(s): 'a' already has a value (b)`; `kubernetes.io/change-cause`
 * may always be overwritten.
 *
 * Mirrors staging/src/k8s.io/kubectl/pkg/cmd/annotate/annotate.go.
 */
import type { KubectlCommand } from '../kubectl.ts';
import { plain, type KubectlError } from './check-err.ts';
import { FIELD_MANAGER_FLAG } from './print-flags.ts';
import { METADATA_FLAGS, runMetadataEdit, validateMetadataArgs, type MetadataEdit } from './label.ts';

/** cmdutil.ParsePairs(args, "annotation", true), then validateAnnotations. */
function parseAnnotationPairs(pairs: string[]): { set: Record<string, string>; remove: string[] } | { error: KubectlError } {
	const set: Record<string, string> = {};
	const remove: string[] = [];
	const invalid: string[] = [];
	for (const pair of pairs) {
		if (pair.includes('=') && pair[0] !== '=') {
			const eq = pair.indexOf('=');
			set[pair.slice(0, eq)] = pair.slice(eq + 1);
		} else if (pair.endsWith('-') && pair !== '-') remove.push(pair.slice(0, -1));
		else invalid.push(pair);
	}
	if (invalid.length) return { error: plain(`invalid annotation format: ${invalid.join(', ')}`) };
	const both = remove.filter((key) => Object.hasOwn(set, key));
	if (both.length) return { error: plain(`can not both modify and remove the following annotation(s) in the same command: ${both.join(', ')}`) };
	return { set, remove };
}

const ANNOTATE_EDIT: MetadataEdit = {
	field: 'annotations',
	pairType: 'annotation',
	commandPath: 'kubectl annotate',
	parse: parseAnnotationPairs,
	checkOverwrite(current, set) {
		const found = Object.keys(set)
			.sort()
			.filter((key) => key !== 'kubernetes.io/change-cause' && Object.hasOwn(current, key) && current[key] !== set[key])
			.map((key) => `'${key}' already has a value (${current[key]})`);
		return found.length ? plain(`--overwrite is false but found the following declared annotation(s): ${found.join('; ')}`) : undefined;
	},
	operation: () => 'annotated',
	validate: (inv, resources, set, remove) => validateMetadataArgs(inv, resources, Object.keys(set).length + remove.length, 'annotation', 'rsrc'),
	reportMissing: false,
	fieldManager: 'kubectl-annotate',
};

export const annotateCommand: KubectlCommand = {
	name: 'annotate',
	summary: 'Update the annotations on a resource',
	usage: 'kubectl annotate [--overwrite] (-f FILENAME | TYPE NAME) KEY_1=VAL_1 ... KEY_N=VAL_N [--resource-version=version]',
	flags: [...METADATA_FLAGS, FIELD_MANAGER_FLAG('kubectl-annotate')],
	run: (inv) => runMetadataEdit(inv, ANNOTATE_EDIT),
};
