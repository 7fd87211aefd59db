/**
 * Keeps an error inside the sandbox from blanking the page: whatever fails
 * while rendering shows a message and a reset button in place of the
 * sandbox; the rest of the chapter stays as it was.
 */
import { Component, type ComponentChildren } from 'preact';

type T = (key: string, values?: Record<string, string | number>) => string;

interface Props {
	t: T;
	/** Starts the sandbox afresh (a new worker, the scenario's starting state). */
	onReset: () => void;
	children: ComponentChildren;
}

export class ErrorBoundary extends Component<Props, { error?: string }> {
	state: { error?: string } = {};

	static getDerivedStateFromError(error: unknown): { error: string } {
		return { error: error instanceof Error ? error.message : String(error) };
	}

	componentDidCatch(error: unknown): void {
		this.setState({ error: error instanceof Error ? error.message : String(error) });
	}

	render() {
		if (this.state.error === undefined) return this.props.children;
		return <SandboxFailure t={this.props.t} message={this.state.error} onReset={this.props.onReset} />;
	}
}

/** The message shown when the sandbox failed (a rendering error or a simulation that stopped). */
export function SandboxFailure({ t, message, onReset }: { t: T; message: string; onReset: () => void }) {
	return (
		<div class="ca-sbx-failure" role="alert">
			<p class="ca-sbx-failure__title">
				<span aria-hidden="true">⚠ </span>
				{t('sandbox.error.title')}
			</p>
			<p class="ca-sbx-failure__detail">{t('sandbox.error.detail', { message })}</p>
			<button type="button" class="ca-sbx-btn ca-sbx-btn--primary" onClick={onReset}>
				{t('sandbox.error.reset')}
			</button>
		</div>
	);
}
