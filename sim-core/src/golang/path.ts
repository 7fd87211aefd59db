/**
 * Go's path.Clean for slash-separated paths: repeated slashes, `.`
 * elements and the `..` that can go back are removed; a rooted path never
 * climbs above `/`; an empty result is `.`. kubectl cp cleans the paths it
 * copies with it, the API server the start key of a continue token.
 *
 * Mirrors golang/go src/path/path.go (Clean).
 */
export function pathClean(p: string): string {
	if (p === '') return '.';
	const rooted = p.startsWith('/');
	const out: string[] = [];
	for (const part of p.split('/')) {
		if (part === '' || part === '.') continue;
		if (part === '..') {
			if (out.length && out[out.length - 1] !== '..') out.pop();
			else if (!rooted) out.push('..');
		} else out.push(part);
	}
	const joined = out.join('/');
	return rooted ? `/${joined}` : joined || '.';
}
