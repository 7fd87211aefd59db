/**
 * Plugin argument errors, worded as field.Error renders them
 * (k8s.io/apimachinery/pkg/util/validation/field), and aggregated the way
 * utilerrors.NewAggregate prints several: `[a, b]`.
 *
 * Mirrors pkg/scheduler/apis/config/validation/validation_pluginargs.go,
 * staging/src/k8s.io/apimachinery/pkg/util/validation/field/errors.go,
 * staging/src/k8s.io/apimachinery/pkg/util/errors/errors.go (NewAggregate).
 */

function render(value: unknown): string {
	if (typeof value === 'string') return JSON.stringify(value);
	return String(value);
}

/** field.Invalid. */
export function invalid(path: string, value: unknown, detail: string): string {
	return `${path}: Invalid value: ${render(value)}: ${detail}`;
}

/** field.Required. */
export function required(path: string, detail: string): string {
	return `${path}: Required value: ${detail}`;
}

/** field.NotSupported. */
export function notSupported(path: string, value: unknown, supported: string[]): string {
	return `${path}: Unsupported value: ${render(value)}: supported values: ${supported.map((s) => JSON.stringify(s)).join(', ')}`;
}

/** Invalid plugin arguments; the message is the aggregate of the field errors. */
export class ArgsError extends Error {
	override name = 'ArgsError';
	constructor(readonly errors: string[]) {
		super(errors.length === 1 ? errors[0] : `[${errors.join(', ')}]`);
	}
}
