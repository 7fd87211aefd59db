// The few settings a deployment changes, in one place.
//
// SITE_BASE: the sub-path the site is served under ('/' at the domain root,
// '/docs/cluster-anatomy' under a sub-path). The build, every internal link,
// search and the sandbox scripts follow it.
// SITE_URL: the public origin, used for canonical links and the sitemap.
// SITE_REPOSITORY: where "View this page's source" points.

const base = process.env.SITE_BASE ?? '/';

export const siteConfig = {
	base: base === '/' ? '/' : `/${base.replace(/^\/+|\/+$/g, '')}`,
	url: process.env.SITE_URL ?? 'https://cluster-anatomy.example',
	repository: process.env.SITE_REPOSITORY ?? 'https://github.com/cluster-anatomy/cluster-anatomy',
	branch: process.env.SITE_BRANCH ?? 'main',
};
