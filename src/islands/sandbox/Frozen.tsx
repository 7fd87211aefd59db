/**
 * Render helpers that keep the main thread light while the cluster plays
 * (ten new views a second): a hidden tab panel is not re-rendered, and a
 * component whose props did not change is not re-rendered either.
 */
import { Component, type ComponentChildren, type ComponentType } from 'preact';

/** Renders its children only while `active`; keeps (and does not update) what it last rendered otherwise. */
export class Frozen extends Component<{ active: boolean; children: ComponentChildren }> {
	shouldComponentUpdate(next: { active: boolean }): boolean {
		return next.active || next.active !== this.props.active;
	}
	render() {
		return this.props.children;
	}
}

/** A component that re-renders only when one of its props changes (shallow comparison). */
export function pure<P extends object>(Inner: ComponentType<P>): ComponentType<P> {
	class Pure extends Component<P> {
		shouldComponentUpdate(next: P): boolean {
			const a = this.props as Record<string, unknown>;
			const b = next as Record<string, unknown>;
			for (const key in b) if (key !== 'children' && a[key] !== b[key]) return true;
			for (const key in a) if (key !== 'children' && !(key in b)) return true;
			return false;
		}
		render() {
			return <Inner {...this.props} />;
		}
	}
	return Pure as unknown as ComponentType<P>;
}
