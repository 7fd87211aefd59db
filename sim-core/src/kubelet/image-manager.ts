/**
 * The kubelet's image rules, before it asks the runtime for anything: the
 * default pull policy (Always for `:latest` or an untagged image,
 * IfNotPresent otherwise, as API defaulting sets it) and the default tag
 * added to an untagged name, keeping the spelling of the pod spec so events
 * read `Pulling image "nginx"`. The pulls themselves, their events and
 * their back-off live in the kubelet's pod sync.
 *
 * Mirrors pkg/kubelet/images/image_manager.go (applyDefaultImageTag,
 * shouldPullImage) and pkg/apis/core/v1/defaults.go (SetDefaults_Container).
 */

/** The default imagePullPolicy: Always for `:latest` or no tag, IfNotPresent otherwise (API defaulting). */
export function defaultPullPolicy(image: string): 'Always' | 'IfNotPresent' {
	if (image.includes('@')) return 'IfNotPresent';
	const slash = image.lastIndexOf('/');
	const colon = image.lastIndexOf(':');
	const tag = colon > slash ? image.slice(colon + 1) : '';
	return tag === '' || tag === 'latest' ? 'Always' : 'IfNotPresent';
}

/** The kubelet's applyDefaultImageTag: `nginx` → `nginx:latest`, leaving the name otherwise as written. */
export function withDefaultTag(image: string): { ok: true; image: string } | { ok: false; error: string } {
	if (image === '' || /\s/.test(image)) return { ok: false, error: `couldn't parse image name "${image}": invalid reference format` };
	const slash = image.lastIndexOf('/');
	const remote = slash >= 0 && /[.:]|^localhost$/.test(image.slice(0, image.indexOf('/'))) ? image.slice(image.indexOf('/') + 1) : image;
	const name = remote.split('@')[0].replace(/:[^/]*$/, '');
	if (name.toLowerCase() !== name) {
		const repo = slash >= 0 && remote !== image ? name : name.includes('/') ? name : `library/${name}`;
		return { ok: false, error: `couldn't parse image name "${image}": invalid reference format: repository name (${repo}) must be lowercase` };
	}
	const colon = image.lastIndexOf(':');
	if (image.includes('@') || colon > slash) return { ok: true, image };
	return { ok: true, image: `${image}:latest` };
}
