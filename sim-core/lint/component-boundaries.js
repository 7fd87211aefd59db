// @ts-check
/**
 * An ESLint rule that keeps sim-core built the way Kubernetes is built:
 * each component is its own folder, components never import each other and
 * meet only at the simulated API server, and what several of them need
 * lives in a shared layer of its own. Upstream enforces the same with
 * import restrictions checked in CI (pkg/scheduler/.import-restrictions,
 * staging/publishing/import-restrictions.yaml).
 *
 * The folders of sim-core/src, by what they may import:
 * - shared layers import only the layers listed for them (lower ones), so
 *   the layers stay a stack without cycles;
 * - components import shared layers and their own folder, never another
 *   component or the wiring;
 * - the wiring (cluster/, scenario/, testing/, index.ts) puts the parts
 *   together and may import anything.
 * Tests (`*.test.ts`) and test data (`testdata/`) may cross where they
 * must; fixtures that cross belong in testing/.
 * A new top-level folder must be added here, as a layer or a component.
 */
import path from 'node:path';

/** Shared layers and the layers each may import. */
export const SHARED_LAYERS = {
	golang: [],
	sim: ['golang'],
	yaml: ['golang'],
	'component-base': ['golang'],
	api: ['golang', 'yaml'],
	'etcd-api': ['golang', 'api'],
	'cri-api': ['golang', 'api'],
	'component-helpers': ['golang', 'api'],
	client: ['golang', 'sim', 'yaml', 'component-base', 'api'],
	host: ['golang', 'component-base', 'api'],
	shell: ['golang', 'yaml', 'api', 'host'],
};

/** Components: one folder per real Kubernetes component (or tool the reader types). */
export const COMPONENTS = ['apiserver', 'store', 'scheduler', 'controllers', 'kubelet', 'runtime', 'network', 'coredns', 'kubectl', 'tools', 'metrics-server'];

/** The wiring, which may import anything. */
export const WIRING = ['cluster', 'scenario', 'testing'];

const SHARED_NAMES = Object.keys(SHARED_LAYERS);

/** The top-level folder of sim-core/src a path is in ('' for files at its root), or undefined outside it. */
function topFolder(file) {
	const parts = path.resolve(file).split(path.sep);
	for (let i = parts.length - 2; i >= 1; i--) {
		if (parts[i] === 'src' && parts[i - 1] === 'sim-core') {
			const rest = parts.slice(i + 1);
			return rest.length > 1 ? rest[0] : '';
		}
	}
	return undefined;
}

/** @type {import('eslint').Rule.RuleModule} */
export const componentBoundaries = {
	meta: {
		type: 'problem',
		docs: { description: "keep sim-core's components apart: they meet through the API server and the shared layers" },
		schema: [],
		messages: {
			component: '{{from}}/ is a component: it may not import {{kind}} {{to}}/ ({{spec}}). Components meet only through the API server; what several need belongs in a shared layer ({{shared}}).',
			layer: '{{from}}/ is a shared layer: it may import only {{allowed}}, not {{to}}/ ({{spec}}).',
			unknown: '{{from}}/ is not a known folder of sim-core/src: add it to sim-core/lint/component-boundaries.js as a shared layer or a component.',
		},
	},
	create(context) {
		const file = context.filename;
		const base = path.basename(file);
		if (base.endsWith('.test.ts') || file.split(path.sep).includes('testdata')) return {};
		const from = topFolder(file);
		if (from === undefined || from === '' || WIRING.includes(from)) return {};
		const isComponent = COMPONENTS.includes(from);
		const isShared = SHARED_NAMES.includes(from);
		const check = (node, spec) => {
			if (typeof spec !== 'string' || !spec.startsWith('.')) return;
			const to = topFolder(path.resolve(path.dirname(file), spec));
			if (to === undefined || to === from) return;
			if (isComponent) {
				if (SHARED_NAMES.includes(to)) return;
				const kind = COMPONENTS.includes(to) ? 'another component,' : WIRING.includes(to) ? 'the wiring,' : 'the folder';
				context.report({ node, messageId: 'component', data: { from, to: to || '(index)', spec, kind, shared: SHARED_NAMES.join(', ') } });
				return;
			}
			const allowed = SHARED_LAYERS[/** @type {keyof typeof SHARED_LAYERS} */ (from)];
			if (!allowed.includes(to)) context.report({ node, messageId: 'layer', data: { from, to: to || '(index)', spec, allowed: allowed.length ? allowed.map((l) => `${l}/`).join(', ') : 'nothing else' } });
		};
		return {
			Program(node) {
				if (!isComponent && !isShared) context.report({ node, messageId: 'unknown', data: { from } });
			},
			ImportDeclaration(node) {
				check(node.source, node.source.value);
			},
			ExportNamedDeclaration(node) {
				if (node.source) check(node.source, node.source.value);
			},
			ExportAllDeclaration(node) {
				check(node.source, node.source.value);
			},
			ImportExpression(node) {
				if (node.source.type === 'Literal') check(node.source, node.source.value);
			},
		};
	},
};

export default { rules: { 'component-boundaries': componentBoundaries } };
