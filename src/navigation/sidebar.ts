/**
 * The book's table of contents. Groups follow the anatomy of a cluster: the
 * control plane, the worker node, then how the parts cooperate. Each group
 * reads its pages from a folder of `content/`, ordered by `sidebar.order` in
 * each page's frontmatter; both locales share the structure, and the labels
 * below carry their Chinese names.
 */
export const sidebar = [
	{
		label: 'Start here',
		translations: { 'zh-CN': '从这里开始' },
		items: [{ autogenerate: { directory: 'start' } }],
	},
];
