/**
 * A small HTML scanner for the built pages: finds start tags with their
 * attributes (respecting quotes), and the raw text of <script> and <style>
 * elements, with exact offsets so callers can splice the source.
 *
 * It is not a general HTML parser; it reads what Astro writes (well-formed,
 * quoted attributes) and is strict about the cases that matter for the
 * Content-Security-Policy: every inline script, style and style attribute.
 */

export interface ScannedAttribute {
	name: string;
	/** Decoded value; '' for a bare attribute. */
	value: string;
	/** Offsets of the whole attribute (including leading whitespace) in the source. */
	start: number;
	end: number;
}

export interface ScannedTag {
	name: string;
	attributes: ScannedAttribute[];
	/** Offset of '<' and of just after '>'. */
	start: number;
	end: number;
	/** For <script> and <style>: the element's raw text and where it sits. */
	rawText?: { text: string; start: number; end: number };
}

const RAW_TEXT_ELEMENTS = new Set(['script', 'style']);

function decodeEntities(text: string): string {
	return text
		.replace(/&quot;/g, '"')
		.replace(/&#39;/g, "'")
		.replace(/&lt;/g, '<')
		.replace(/&gt;/g, '>')
		.replace(/&amp;/g, '&');
}

/** Returns every start tag of the document, in order. */
export function scanTags(html: string): ScannedTag[] {
	const tags: ScannedTag[] = [];
	const lower = html.toLowerCase();
	let i = 0;
	while (i < html.length) {
		const lt = html.indexOf('<', i);
		if (lt === -1) break;
		if (html.startsWith('<!--', lt)) {
			const close = html.indexOf('-->', lt + 4);
			i = close === -1 ? html.length : close + 3;
			continue;
		}
		if (!/[a-zA-Z]/.test(html[lt + 1] ?? '')) {
			i = lt + 1;
			continue;
		}
		let j = lt + 1;
		while (j < html.length && /[^\s/>]/.test(html[j])) j++;
		const name = html.slice(lt + 1, j).toLowerCase();
		const attributes: ScannedAttribute[] = [];
		while (j < html.length) {
			const attrStart = j;
			while (j < html.length && /\s/.test(html[j])) j++;
			if (html[j] === '>' || html.startsWith('/>', j)) break;
			const nameStart = j;
			while (j < html.length && /[^\s=/>]/.test(html[j])) j++;
			const attrName = html.slice(nameStart, j).toLowerCase();
			if (!attrName) {
				j++;
				continue;
			}
			let value = '';
			let k = j;
			while (k < html.length && /\s/.test(html[k])) k++;
			if (html[k] === '=') {
				k++;
				while (k < html.length && /\s/.test(html[k])) k++;
				const quote = html[k];
				if (quote === '"' || quote === "'") {
					const close = html.indexOf(quote, k + 1);
					value = html.slice(k + 1, close);
					j = close + 1;
				} else {
					const valueStart = k;
					while (k < html.length && /[^\s>]/.test(html[k])) k++;
					value = html.slice(valueStart, k);
					j = k;
				}
			}
			attributes.push({ name: attrName, value: decodeEntities(value), start: attrStart, end: j });
		}
		const end = html.indexOf('>', j) + 1;
		const tag: ScannedTag = { name, attributes, start: lt, end };
		if (RAW_TEXT_ELEMENTS.has(name)) {
			const close = lower.indexOf(`</${name}`, end);
			const textEnd = close === -1 ? html.length : close;
			tag.rawText = { text: html.slice(end, textEnd), start: end, end: textEnd };
			i = textEnd;
		} else {
			i = end;
		}
		tags.push(tag);
	}
	return tags;
}
