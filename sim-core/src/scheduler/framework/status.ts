/**
 * The result of running a plugin: a code and the reasons behind it.
 * Upstream's `Code` and `Status`: the codes, their names, and how
 * `Message()` joins the error and the reasons with ", " (which is what ends
 * up in FitError messages).
 *
 * Mirrors staging/src/k8s.io/kube-scheduler/framework/interface.go (Code,
 * Status).
 */

/** framework.Code, with upstream's numbering. */
export enum Code {
	/** The plugin ran and the pod fits (or the plugin has nothing to say). */
	Success = 0,
	/** An internal error, not a verdict about the pod. */
	Error = 1,
	/** The pod does not fit now, but preemption or a cluster change might help. */
	Unschedulable = 2,
	/** The pod does not fit and preemption cannot change that on this node. */
	UnschedulableAndUnresolvable = 3,
	/** A Permit plugin asks the pod to wait. */
	Wait = 4,
	/** The plugin has nothing to do for this pod: its later extension points are skipped. */
	Skip = 5,
	/** The pod waits for something outside the scheduler (used by PreEnqueue and async work). */
	Pending = 6,
}

/** The names upstream prints for each code (Code.String()). */
export const CODE_NAMES: Record<Code, string> = {
	[Code.Success]: 'Success',
	[Code.Error]: 'Error',
	[Code.Unschedulable]: 'Unschedulable',
	[Code.UnschedulableAndUnresolvable]: 'UnschedulableAndUnresolvable',
	[Code.Wait]: 'Wait',
	[Code.Skip]: 'Skip',
	[Code.Pending]: 'Pending',
};

/**
 * framework.Status. A missing status (`undefined`) means Success, as a nil
 * *Status does upstream; use the helpers below rather than reading `code`
 * directly when the status may be absent.
 */
export class Status {
	/** The plugin that produced this status, once the framework knows it. */
	plugin = '';

	constructor(
		readonly code: Code,
		readonly reasons: readonly string[] = [],
		/** An error carried by the status; its text comes first in Reasons(). */
		readonly error?: string,
	) {}

	/** NewStatus(code, reasons...). */
	static of(code: Code, ...reasons: string[]): Status {
		return new Status(code, reasons);
	}

	/** AsStatus(err): an Error status carrying the message. */
	static asError(message: string): Status {
		return new Status(Code.Error, [], message);
	}

	/** Status.WithError: the same code with `message` as its error. */
	withError(message: string): Status {
		const s = new Status(this.code, this.reasons, message);
		s.plugin = this.plugin;
		return s;
	}

	/** Status.WithPlugin. */
	withPlugin(plugin: string): this {
		this.plugin = plugin;
		return this;
	}

	/** Status.Reasons(): the error's text first (if any), then the reasons. */
	allReasons(): string[] {
		return this.error !== undefined ? [this.error, ...this.reasons] : [...this.reasons];
	}

	/** Status.Message(): the reasons joined with ", ". */
	message(): string {
		return this.allReasons().join(', ');
	}

	get codeName(): string {
		return CODE_NAMES[this.code];
	}
}

/** Status.IsSuccess (a missing status is a success). */
export function isSuccess(s: Status | undefined | null): boolean {
	return !s || s.code === Code.Success;
}

/** Status.IsSkip. */
export function isSkip(s: Status | undefined | null): boolean {
	return !!s && s.code === Code.Skip;
}

/** Status.IsRejected: Unschedulable, UnschedulableAndUnresolvable or Pending. */
export function isRejected(s: Status | undefined | null): boolean {
	return !!s && (s.code === Code.Unschedulable || s.code === Code.UnschedulableAndUnresolvable || s.code === Code.Pending);
}

