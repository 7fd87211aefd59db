/**
 * Small pieces the panels share: a control that is a button when scripts
 * run and plain text in the server-rendered picture, a scrollable region
 * that keyboard users can reach, a request that never throws, and hooks
 * that ask the worker again when the cluster changes, only while the panel
 * is on screen (latest answer wins).
 */
import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import type { Request, Response } from '../../../sandbox/protocol.ts';

type PanelRequest = (request: Request) => Promise<Response>;

/** A button when `live`, a span otherwise (the no-JavaScript picture has nothing to click). */
export function Clickable(props: { live: boolean; class: string; onClick: () => void; label?: string; children: ComponentChildren }) {
	if (!props.live) return <span class={props.class}>{props.children}</span>;
	return (
		<button type="button" class={props.class} onClick={props.onClick} aria-label={props.label}>
			{props.children}
		</button>
	);
}

/** A region that scrolls on its own; focusable so that keyboard users can scroll it. */
export function ScrollRegion(props: { label: string; class?: string; children: ComponentChildren; regionRef?: preact.Ref<HTMLDivElement> }) {
	return (
		<div class={`ca-scroll ${props.class ?? ''}`} role="region" aria-label={props.label} tabIndex={0} ref={props.regionRef}>
			{props.children}
		</div>
	);
}

/**
 * Sends a request and always resolves with a response: a missing answer or
 * a rejected promise (a worker that does not know the request) becomes an
 * `error` response, so a panel never throws over it.
 */
export async function ask(request: PanelRequest, r: Request): Promise<Response> {
	try {
		const response = await request(r);
		return response && typeof response === 'object' && 'type' in response ? response : { type: 'error', message: `no answer to ${r.type}` };
	} catch (error) {
		return { type: 'error', message: error instanceof Error ? error.message : String(error) };
	}
}

/**
 * Whether an element is on screen: false while its panel is hidden or
 * scrolled away, so that panels stop asking the worker for what nobody
 * sees (true where IntersectionObserver is missing).
 */
export function useShown(ref: { current: Element | null }): boolean {
	const [shown, setShown] = useState(true);
	useEffect(() => {
		const el = ref.current;
		if (!el || typeof IntersectionObserver === 'undefined') return;
		const observer = new IntersectionObserver((entries) => setShown(entries.some((e) => e.isIntersecting)));
		observer.observe(el);
		return () => observer.disconnect();
	}, []);
	return shown;
}

/**
 * Asks the worker with `ask()` whenever `key` changes, and again when
 * `refresh` changes (the cluster moved), at most once per `minGapMs` and
 * only while `shown`; one question at a time. Only the newest answer is
 * kept; answers to older questions are dropped.
 */
export function useAnswer<T>(
	ask: () => Promise<Response> | undefined,
	pick: (response: Response) => T | undefined,
	key: string,
	refresh: unknown,
	options: { minGapMs?: number; shown?: boolean } = {},
): { value: T | undefined; error?: string; loading: boolean } {
	const minGapMs = options.minGapMs ?? 300;
	const shown = options.shown ?? true;
	const [state, setState] = useState<{ value: T | undefined; error?: string; loading: boolean; key: string }>({ value: undefined, loading: true, key });
	const flow = useRef({ ticket: 0, last: 0, busy: false, again: false, answeredKey: undefined as string | undefined });
	const askRef = useRef(ask);
	askRef.current = ask;
	const pickRef = useRef(pick);
	pickRef.current = pick;
	useEffect(() => {
		const f = flow.current;
		const newKey = f.answeredKey !== key;
		if (!shown && !newKey) return;
		const run = () => {
			if (f.busy && !newKey) {
				f.again = true;
				return;
			}
			const mine = ++f.ticket;
			f.last = Date.now();
			f.busy = true;
			const question = askRef.current();
			if (!question) {
				f.busy = false;
				f.answeredKey = key;
				setState({ value: undefined, loading: false, key });
				return;
			}
			question
				.then(
					(response) => (response && typeof response === 'object' && 'type' in response ? response : ({ type: 'error', message: 'no answer' } as Response)),
					(error: unknown) => ({ type: 'error', message: String(error) }) as Response,
				)
				.then((response) => {
					if (mine !== f.ticket) return;
					f.busy = false;
					f.answeredKey = key;
					if (response.type === 'error') setState((s) => ({ value: s.key === key ? s.value : undefined, error: response.message, loading: false, key }));
					else setState({ value: pickRef.current(response), loading: false, key });
					if (f.again) {
						f.again = false;
						run();
					}
				});
		};
		const wait = newKey ? 0 : Math.max(0, f.last + minGapMs - Date.now());
		if (wait === 0) {
			run();
			return;
		}
		const timer = setTimeout(run, wait);
		return () => clearTimeout(timer);
	}, [key, refresh, shown]);
	return state.key === key ? state : { value: undefined, loading: true };
}
