/**
 * The book's table of contents. Groups follow the anatomy of a cluster: the
 * control plane, the worker node, then how the parts cooperate. Each group
 * reads its pages from a folder of `content/`, ordered by `sidebar.order` in
 * each page's frontmatter; both locales share the structure, and the labels
 * below carry their Chinese names. The add-ons (cluster DNS, metrics) come
 * after the node: they run as ordinary workloads on it. Failures come after
 * the journeys: they follow the same road, looking for the step that did not
 * happen. Operations come after failures: keeping a cluster running through
 * them (high availability first). ../shared/ROADMAP.md lists the groups to
 * come (networking).
 */
const group = (label: string, zh: string, directory: string) => ({
	label,
	translations: { 'zh-CN': zh },
	items: [{ autogenerate: { directory } }],
});

export const sidebar = [
	group('Start here', '从这里开始', 'start'),
	group('The control plane', '控制面', 'control-plane'),
	group('The worker node', '工作节点', 'node'),
	group('Add-ons', '附加组件', 'addons'),
	group('How the parts cooperate', '组件如何协作', 'journeys'),
	group('Failures', '故障', 'failures'),
	group('Operations', '运维', 'operations'),
	group('Reference', '参考', 'reference'),
];
