/**
 * Pieces the help texts share (see ./index.ts): the meanings of the
 * printing, dry-run and file flags many commands declare, and a helper
 * that lays out an Examples section.
 *
 * Mirrors nothing upstream: the simulator's own help texts.
 */

/** An Examples section: each example a comment and its commands, indented two spaces, a blank line between. */
export function examples(...items: ReadonlyArray<readonly [comment: string, ...commands: string[]]>): string {
	return items.map(([comment, ...commands]) => [`  # ${comment}`, ...commands.map((c) => `  ${c}`)].join('\n')).join('\n\n');
}

/** The flags of PRINT_FLAGS: how a changed or created object is printed. */
export const PRINT_MEANINGS: Readonly<Record<string, string>> = {
	'allow-missing-template-keys': 'Print nothing for a template key the object lacks, instead of an error.',
	output: 'Print the resulting object instead of a message: json, yaml, name, go-template=..., jsonpath=...',
	'show-managed-fields': 'Keep metadata.managedFields in JSON and YAML output.',
	template: 'The template (or its file) for -o go-template, -o jsonpath and the like.',
};

/** --dry-run, as every changing command declares it. */
export const DRY_RUN_MEANING = 'none sends the change; client only prints what would be sent; server has the API server check it without storing it.';

/** The meanings shared by commands that create objects from flags (`create deployment`, `run`, `expose`). */
export const CREATE_MEANINGS: Readonly<Record<string, string>> = {
	...PRINT_MEANINGS,
	'dry-run': DRY_RUN_MEANING,
	'field-manager': 'The manager name recorded in managedFields for the fields this command sets.',
	'save-config': 'Also store the object in its last-applied-configuration annotation, so a later kubectl apply can work out what changed.',
	validate: 'How the server checks the object against its schema: strict rejects unknown or duplicate fields, warn only reports them, ignore skips the check.',
};

/** -f, -k and -R for a command that acts on the objects they name. */
export function fileMeanings(verb: string): Readonly<Record<string, string>> {
	return {
		filename: `A file, directory or URL naming the objects to ${verb}.`,
		kustomize: `A kustomization directory naming the objects to ${verb}.`,
		recursive: 'Read the directories given with -f, and their subdirectories.',
	};
}

/** -l, as the commands that pick objects by label declare it. */
export const SELECTOR_MEANING = 'A label selector choosing the objects, e.g. app=web or tier!=db.';
