/**
 * On a chapter page wide enough for Starlight's table of contents (72rem
 * and up), the sandbox's frame reaches over the contents column, so that
 * the map can sit beside the terminal and the reader watches the cluster
 * react while typing (in the 45rem text column the map sits below the
 * terminal, out of sight). The frame is opaque and paints over the fixed
 * contents list only while it is on screen; the chapter's text keeps its
 * measure. Returns how many pixels to reach to the right (0: stay in the
 * column), measured again when the window is resized.
 */
import { useEffect, useState } from 'preact/hooks';

/** Starlight's breakpoint for the right-hand contents column. */
const WIDE_QUERY = '(min-width: 72rem)';
/** Not worth reaching out for less; never wider than this in all (px). */
const EXTEND_MIN_PX = 160;
const FRAME_MAX_PX = 1200;

export function useWideFrame(root: { readonly current: HTMLElement | null }, enabled: boolean): number {
	const [extend, setExtend] = useState(0);
	useEffect(() => {
		if (!enabled) {
			setExtend(0);
			return;
		}
		const measure = () => {
			const section = root.current?.closest<HTMLElement>('.ca-sandbox');
			if (!section || !matchMedia(WIDE_QUERY).matches || !section.closest('.sl-container') || !document.querySelector('[data-has-toc]')) {
				setExtend(0);
				return;
			}
			const box = section.getBoundingClientRect();
			const gap = parseFloat(getComputedStyle(document.documentElement).fontSize) * 1.5;
			const room = Math.floor(Math.min(document.documentElement.clientWidth - gap - box.right, FRAME_MAX_PX - box.width));
			setExtend(room >= EXTEND_MIN_PX ? room : 0);
		};
		measure();
		window.addEventListener('resize', measure);
		return () => window.removeEventListener('resize', measure);
	}, [enabled]);
	return extend;
}
