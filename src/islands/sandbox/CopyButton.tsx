/** A button that copies text to the clipboard and says whether it worked (politely announced). */
import { useEffect, useState } from 'preact/hooks';

type T = (key: string, values?: Record<string, string | number>) => string;

export async function copyToClipboard(text: string): Promise<boolean> {
	try {
		await navigator.clipboard.writeText(text);
		return true;
	} catch {
		return false;
	}
}

export function CopyButton(props: { text: string; t: T; label: string; disabled?: boolean }) {
	const [state, setState] = useState<'idle' | 'done' | 'failed'>('idle');
	useEffect(() => {
		if (state === 'idle') return;
		const timer = setTimeout(() => setState('idle'), 2500);
		return () => clearTimeout(timer);
	}, [state]);
	return (
		<span class="ca-sbx-copy">
			<button type="button" class="ca-sbx-btn" disabled={props.disabled} onClick={async () => setState((await copyToClipboard(props.text)) ? 'done' : 'failed')}>
				{props.label}
			</button>
			<span class="ca-sbx-copy__status" role="status">
				{state === 'done' ? props.t('sandbox.frame.copied') : state === 'failed' ? props.t('sandbox.frame.copyFailed') : ''}
			</span>
		</span>
	);
}
