/**
 * DefaultBinder: writes the decision by POSTing a Binding to the pod's
 * `binding` subresource; the API server sets spec.nodeName.
 *
 * Mirrors pkg/scheduler/framework/plugins/defaultbinder/default_binder.go.
 */
import type { Pod } from '../../api/types.ts';
import type { CycleState } from '../framework/cycle-state.ts';
import type { BindPlugin, Handle } from '../framework/interface.ts';
import { Status } from '../framework/status.ts';
import { Names } from './names.ts';

export class DefaultBinder implements BindPlugin {
	readonly name = Names.DefaultBinder;

	constructor(private readonly handle: Handle) {}

	bind(_state: CycleState, pod: Pod, nodeName: string): Status | undefined {
		const result = this.handle.client.bind(pod.metadata.namespace ?? 'default', pod.metadata.name ?? '', nodeName);
		if (result.ok) return undefined;
		return Status.asError(result.message || result.reason);
	}
}
