/**
 * NodeResourcesFit's scoring strategies and NodeResourcesBalancedAllocation:
 * upstream's tables in pkg/scheduler/framework/plugins/noderesources,
 * replayed through the public API. Both score each node on its own (no
 * NormalizeScore), so the four tables share one cluster that holds every
 * node they use.
 */
import { boundPods, node, pod, resourcesFor, scoreOnly, type NotExpressible, type PublicTable, type TableCase } from './table.ts';

const cpuMem = (cpu: string, memory: string) => ({ cpu, memory });
/** MakePod().Req(1000/2000).Req(2000/3000): the tables' usual incoming pod. */
const twoContainers = (name: string) => pod(name, { requests: [cpuMem('1000', '2000'), cpuMem('2000', '3000')] });

const n4k = (name: string) => node(name, '4000', 10000);
const n6k = (name: string) => node(name, '6000', 10000);
const n10k = (name: string, memory = 20000) => node(name, '10000', memory);

/** A profile scoring with NodeResourcesFit only, with this scoring strategy. */
const fitProfile = (schedulerName: string, scoringStrategy: Record<string, unknown>, filter = true) =>
	scoreOnly(schedulerName, 'NodeResourcesFit', { scoringStrategy }, filter ? {} : { plugins: { preFilter: { disabled: [{ name: 'NodeResourcesFit' }] }, filter: { disabled: [{ name: 'NodeResourcesFit' }] } } });
const cpuAndMemory1 = [
	{ name: 'cpu', weight: 1 },
	{ name: 'memory', weight: 1 },
];
const memory2cpu1 = [
	{ name: 'memory', weight: 2 },
	{ name: 'cpu', weight: 1 },
];

/** The filter is off in `*-nofilter` profiles: upstream scores nodes the pod does not fit, which Filter would reject first. */
const NO_FILTER_NOTE = "the pod does not fit (upstream calls Score without Filter), so this profile disables NodeResourcesFit's PreFilter and Filter; the kubelet then rejects the pod (OutOfcpu)";

const EXTENDED: NotExpressible[] = [
	{ name: 'bypass extended resource if the pod does not request', why: 'needs a node with the extended resource abc.com/xyz: kubelets here report only cpu, memory, pods, ephemeral-storage and hugepages (no device plugins, and the kubelet rewrites its capacity on every status update)' },
	{ name: 'honor extended resource if the pod requests', why: 'needs nodes with the extended resource abc.com/xyz (see above)' },
	{ name: "if the node doesn't have a resource", why: 'needs a node with the extended resource abc.com/xyz (see above)' },
];
const WEIGHT_VALIDATION: NotExpressible[] = [
	{ name: 'resource with negative weight', why: "an argument validation case (NewFit's error), not a score; node-resources-fit.test.ts checks the message" },
	{ name: 'resource with zero weight', why: 'an argument validation case (see above)' },
	{ name: 'resource weight larger than MaxNodeScore', why: 'an argument validation case (see above)' },
];

export const leastAllocated: PublicTable = {
	test: 'TestLeastAllocatedScoringStrategy',
	isolation: 'none',
	clusterGroup: 'noderesources',
	source: 'noderesources/least_allocated_test.go @008b3652',
	plugin: 'NodeResourcesFit',
	profiles: [fitProfile('least-allocated', { type: 'LeastAllocated', resources: cpuAndMemory1 }), fitProfile('least-allocated-nofilter', { type: 'LeastAllocated', resources: cpuAndMemory1 }, false), fitProfile('least-allocated-memory2', { type: 'LeastAllocated', resources: memory2cpu1 })],
	defaultProfile: 'least-allocated',
	cases: [
		{ name: 'nothing scheduled, nothing requested', nodes: [n4k('node1'), n4k('node2')], pod: pod('la-1'), expect: { scores: { node1: 100, node2: 100 } } },
		{ name: 'nothing scheduled, resources requested, differently sized nodes', nodes: [n4k('node1'), n6k('node2')], pod: twoContainers('la-2'), expect: { scores: { node1: 37, node2: 50 } } },
		{ name: 'no resources requested, pods scheduled', nodes: [n4k('node1'), n4k('node2')], existingPods: boundPods('la-3', [['node1'], ['node1'], ['node2'], ['node2']]), pod: pod('la-3'), expect: { scores: { node1: 100, node2: 100 } } },
		{
			name: 'no resources requested, pods scheduled with resources',
			nodes: [n10k('node1'), n10k('node2')],
			existingPods: boundPods('la-4', [
				['node1', { requests: [cpuMem('3000', '0')] }],
				['node1', { requests: [cpuMem('3000', '0')] }],
				['node2', { requests: [cpuMem('3000', '0')] }],
				['node2', { requests: [cpuMem('3000', '5000')] }],
			]),
			pod: pod('la-4'),
			expect: { scores: { node1: 70, node2: 57 } },
		},
		{
			name: 'resources requested, pods scheduled with resources',
			nodes: [n10k('node1'), n10k('node2')],
			existingPods: boundPods('la-5', [
				['node1', { requests: [cpuMem('3000', '0')] }],
				['node2', { requests: [cpuMem('3000', '5000')] }],
			]),
			pod: twoContainers('la-5'),
			expect: { scores: { node1: 57, node2: 45 } },
		},
		{
			name: 'resources requested, pods scheduled with resources, differently sized nodes',
			nodes: [n10k('node1'), n10k('node2', 50000)],
			existingPods: boundPods('la-6', [
				['node1', { requests: [cpuMem('3000', '0')] }],
				['node2', { requests: [cpuMem('3000', '5000')] }],
			]),
			pod: twoContainers('la-6'),
			expect: { scores: { node1: 57, node2: 60 } },
		},
		{
			name: 'requested resources exceed node capacity',
			nodes: [n4k('node1'), n4k('node2')],
			existingPods: boundPods('la-7', [
				['node1', { requests: [cpuMem('3000', '0')] }],
				['node2', { requests: [cpuMem('3000', '5000')] }],
			]),
			pod: pod('la-7', { requests: [cpuMem('3000', '0')] }),
			profile: 'least-allocated-nofilter',
			note: NO_FILTER_NOTE,
			expect: { scores: { node1: 50, node2: 25 } },
		},
		{
			name: 'zero node resources, pods scheduled with resources',
			nodes: [node('node1', '0', 0), node('node2', '0', 0)],
			existingPods: boundPods('la-8', [
				['node1', { requests: [cpuMem('3000', '0')] }],
				['node2', { requests: [cpuMem('3000', '5000')] }],
			]),
			pod: pod('la-8'),
			note: 'the kubelets of nodes with no allocatable cpu or memory reject the existing pods (OutOfcpu), as real ones would; with allocatable 0 every score is 0 whatever is requested',
			expect: { scores: { node1: 0, node2: 0 } },
		},
		{
			name: 'nothing scheduled, resources requested with different weight on CPU and memory, differently sized nodes',
			nodes: [n4k('node1'), n6k('node2')],
			pod: twoContainers('la-9'),
			profile: 'least-allocated-memory2',
			note: "upstream's pod also names node1 in spec.nodeName, which would bypass the scheduler; it is left out",
			expect: { scores: { node1: 41, node2: 50 } },
		},
	],
	notExpressible: [{ name: 'Resources not set, pods scheduled with error', why: 'a KubeSchedulerConfiguration cannot leave scoringStrategy.resources empty: defaulting fills in cpu and memory (SetDefaults_NodeResourcesFitArgs)' }, ...WEIGHT_VALIDATION, ...EXTENDED],
};

export const mostAllocated: PublicTable = {
	test: 'TestMostAllocatedScoringStrategy',
	isolation: 'none',
	clusterGroup: 'noderesources',
	source: 'noderesources/most_allocated_test.go @030880a5',
	plugin: 'NodeResourcesFit',
	profiles: [fitProfile('most-allocated', { type: 'MostAllocated', resources: cpuAndMemory1 }), fitProfile('most-allocated-memory2', { type: 'MostAllocated', resources: memory2cpu1 })],
	defaultProfile: 'most-allocated',
	cases: [
		{ name: 'nothing scheduled, nothing requested', nodes: [n4k('node1'), n4k('node2')], pod: pod('ma-1'), expect: { scores: { node1: 0, node2: 0 } } },
		{ name: 'nothing scheduled, resources requested, differently sized nodes', nodes: [n4k('node1'), n6k('node2')], pod: twoContainers('ma-2'), expect: { scores: { node1: 62, node2: 50 } } },
		{
			name: 'no resources requested, pods scheduled with resources',
			nodes: [n10k('node1'), n10k('node2')],
			existingPods: boundPods('ma-3', [
				['node1', { requests: [cpuMem('3000', '0')] }],
				['node1', { requests: [cpuMem('3000', '0')] }],
				['node2', { requests: [cpuMem('3000', '0')] }],
				['node2', { requests: [cpuMem('3000', '5000')] }],
			]),
			pod: pod('ma-3'),
			expect: { scores: { node1: 30, node2: 42 } },
		},
		{
			name: 'resources requested, pods scheduled with resources',
			nodes: [n10k('node1'), n10k('node2')],
			existingPods: boundPods('ma-4', [
				['node1', { requests: [cpuMem('3000', '0')] }],
				['node2', { requests: [cpuMem('3000', '5000')] }],
			]),
			pod: twoContainers('ma-4'),
			expect: { scores: { node1: 42, node2: 55 } },
		},
		{
			name: 'resources requested equal node capacity',
			nodes: [node('node1', '5000', 10000), node('node2', '10000', 9000)],
			pod: pod('ma-5', { requests: [cpuMem('2000', '4000'), cpuMem('3000', '5000')] }),
			expect: { scores: { node1: 95, node2: 75 } },
		},
		{
			name: 'nothing scheduled, resources requested, differently sized nodes, memory weighted 2',
			nodes: [n4k('node1'), n6k('node2')],
			pod: twoContainers('ma-6'),
			profile: 'most-allocated-memory2',
			expect: { scores: { node1: 58, node2: 50 } },
		},
		{
			name: 'no resources requested, pods scheduled, nonzero request for resource',
			nodes: [node('node1', '250m', 1000 * 1024 * 1024), node('node2', '250m', 1000 * 1024 * 1024)],
			existingPods: boundPods('ma-7', [['node1', { images: ['registry.k8s.io/pause:3.10.2'] }], ['node1', { images: ['registry.k8s.io/pause:3.10.2'] }]]),
			// The containers set no requests at all, so the 100m / 200Mi scoring defaults count.
			pod: pod('ma-7', { images: ['registry.k8s.io/pause:3.10.2'] }),
			expect: { scores: { node1: 80, node2: 30 } },
		},
	],
	notExpressible: [...WEIGHT_VALIDATION, ...EXTENDED.map((e) => (e.name === 'honor extended resource if the pod requests' ? { ...e, name: 'honor extended resource if the pod request' } : e))],
};

const shape = [
	{ utilization: 0, score: 10 },
	{ utilization: 100, score: 0 },
];

export const requestedToCapacityRatio: PublicTable = {
	test: 'TestRequestedToCapacityRatioScoringStrategy',
	isolation: 'none',
	clusterGroup: 'noderesources',
	source: 'noderesources/requested_to_capacity_ratio_test.go @00b9ead0',
	plugin: 'NodeResourcesFit',
	profiles: [fitProfile('requested-to-capacity-ratio', { type: 'RequestedToCapacityRatio', resources: cpuAndMemory1, requestedToCapacityRatio: { shape } })],
	defaultProfile: 'requested-to-capacity-ratio',
	cases: [
		{ name: 'nothing scheduled, nothing requested (default - least requested nodes have priority)', nodes: [n4k('node1'), n4k('node2')], existingPods: boundPods('rtcr-1', [['node1'], ['node1']]), pod: pod('rtcr-1'), expect: { scores: { node1: 100, node2: 100 } } },
		{ name: 'nothing scheduled, resources requested, differently sized nodes (default - least requested nodes have priority)', nodes: [n4k('node1'), n6k('node2')], existingPods: boundPods('rtcr-2', [['node1'], ['node1']]), pod: twoContainers('rtcr-2'), expect: { scores: { node1: 38, node2: 50 } } },
		{
			name: 'no resources requested, pods scheduled with resources (default - least requested nodes have priority)',
			nodes: [n4k('node1'), n6k('node2')],
			existingPods: boundPods('rtcr-3', [
				['node1', { requests: [cpuMem('3000', '5000')] }],
				['node2', { requests: [cpuMem('3000', '5000')] }],
			]),
			pod: pod('rtcr-3'),
			expect: { scores: { node1: 38, node2: 50 } },
		},
	],
	notExpressible: [],
};

export const balancedAllocation: PublicTable = {
	test: 'TestNodeResourcesBalancedAllocation',
	isolation: 'none',
	clusterGroup: 'noderesources',
	source: 'noderesources/balanced_allocation_test.go (v1.36, after #135573)',
	plugin: 'NodeResourcesBalancedAllocation',
	profiles: [scoreOnly('balanced-allocation', 'NodeResourcesBalancedAllocation', { resources: cpuAndMemory1 })],
	defaultProfile: 'balanced-allocation',
	cases: [
		{ name: 'nothing scheduled, nothing requested, skip in PreScore', nodes: [node('node1', '4', 10000), node('node2', '4', 10000)], pod: pod('ba-1'), expect: { preScore: 'Skip' } },
		{ name: 'nothing scheduled, resources requested, differently sized nodes', nodes: [node('node1', '4', 10000), node('node2', '6', 10000)], pod: pod('ba-2', { requests: [cpuMem('1000m', '2000'), cpuMem('2000m', '3000')] }), expect: { scores: { node1: 68, node2: 75 } } },
		{
			name: 'resources requested, pods scheduled with resources',
			nodes: [node('node1', '10', 20000), node('node2', '10', 20000)],
			existingPods: boundPods('ba-3', [
				['node1', { requests: [{ cpu: '1000m' }, { cpu: '2000m' }] }],
				['node2', { requests: [cpuMem('1000m', '2000'), cpuMem('2000m', '3000')] }],
			]),
			pod: pod('ba-3', { requests: [cpuMem('1000m', '2000'), cpuMem('2000m', '3000')] }),
			expect: { scores: { node1: 73, node2: 74 } },
		},
		{
			name: 'resources requested, pods scheduled with resources, differently sized nodes',
			nodes: [node('node1', '10', 20000), node('node2', '10', 50000)],
			existingPods: boundPods('ba-4', [
				['node1', { requests: [{ cpu: '1000m' }, { cpu: '2000m' }] }],
				['node2', { requests: [cpuMem('1000m', '2000'), cpuMem('2000m', '3000')] }],
			]),
			pod: pod('ba-4', { requests: [cpuMem('1000m', '2000'), cpuMem('2000m', '3000')] }),
			expect: { scores: { node1: 73, node2: 70 } },
		},
		{
			name: 'resources requested, pods scheduled with resources, nodes to reach min/max score',
			nodes: [node('node1', '3', 5000), node('node2', '3', 5000)],
			existingPods: boundPods('ba-5', [['node1', { requests: [{ cpu: '1000m' }, { cpu: '2000m' }] }]]),
			pod: pod('ba-5', { requests: [{ memory: '2000' }, { memory: '3000' }] }),
			note: "NodeResourcesFit's filter lets the pod onto node1 although its cpu is all requested: the pod asks for no cpu",
			expect: { scores: { node1: 100, node2: 50 } },
		},
		{
			name: 'requested resources at node capacity',
			nodes: [node('node1', '6', 10000), node('node2', '6', 10000)],
			existingPods: boundPods('ba-6', [
				['node1', { requests: [{ cpu: '1000m' }, { cpu: '2000m' }] }],
				['node2', { requests: [cpuMem('1000m', '2000'), cpuMem('2000m', '3000')] }],
			]),
			pod: pod('ba-6', { requests: [{ cpu: '1000m' }, { cpu: '2000m' }] }),
			expect: { scores: { node1: 62, node2: 62 } },
		},
	],
	notExpressible: [
		{ name: 'scalar resource is included in the score computation if pod requests the scalar resource', why: 'needs nodes with the extended resource nvidia.com/gpu: kubelets here report only cpu, memory, pods, ephemeral-storage and hugepages (no device plugins)' },
		{ name: "scalar resource is not included in the score computation if pod doesn't request the scalar resource", why: 'needs a node with the extended resource nvidia.com/gpu (see above)' },
		{ name: 'resources requested, pods scheduled with resources if PreScore not called', why: 'the framework always runs PreScore before Score; the case checks the plugin without it, which only a direct call can do' },
		{ name: 'include DRA resource on a node for balanced resource allocation', why: 'needs DRA (a DeviceClass and a ResourceSlice), which the simulation does not run' },
		{ name: 'include DRA resource on a node for balanced resource allocation if PreScore not called', why: 'needs DRA (see above)' },
	],
};

// ---- NodeResourcesFit's Filter (fit_test.go) ----------------------------------------------

/** newResourcePod(Resource{MilliCPU, Memory}) per container (upstream also lists pods: 0 and ephemeral-storage: 0, which add nothing; a container may not request pods). */
const milli = (cpu: number, memory: number) => ({ cpu: `${cpu}m`, memory: String(memory) });
const insufficient = (...resources: string[]) => ({ code: 'Unschedulable' as const, reasons: resources.map((r) => `Insufficient ${r}`) });
const unresolvable = (...resources: string[]) => ({ code: 'UnschedulableAndUnresolvable' as const, reasons: resources.map((r) => `Insufficient ${r}`) });
const fitsNode = { code: 'Success' as const, reasons: [] };
/** TestEnoughRequests' node: allocatable cpu 10m, memory 20, pods 32 (and example.com/aaa 5, ephemeral-storage 20, hugepages-2Mi 5, which a kubelet here cannot report). */
const enoughNode = () => node('node', '10m', 20, { pods: 32 });
let fitCase = 0;
/** One filter case on `nodeOf()`: the existing pod's usage, the incoming pod's containers and init containers. */
const fitFilter = (name: string, used: Array<Record<string, string>>, containers: Array<Record<string, string>>, init: Array<Record<string, string>>, verdict: { code: 'Success' | 'Unschedulable' | 'UnschedulableAndUnresolvable'; reasons: string[] }, extra: Partial<TableCase> = {}, nodeOf = enoughNode): TableCase => {
	const n = ++fitCase;
	const incoming = pod(`fit-${n}`, containers.length ? { requests: containers } : {});
	if (init.length) (incoming as { spec: Record<string, unknown> }).spec.initContainers = init.map((requests, i) => ({ name: `i${i}`, image: 'registry.k8s.io/pause:3.10.2', resources: resourcesFor(requests) }));
	return { name, nodes: [nodeOf()], existingPods: used.length ? boundPods(`fit-${n}`, [['node', { requests: used }]]) : [], pod: incoming, expect: { filter: { node: verdict } }, ...extra };
};
const withPodLevel = (c: TableCase, requests: Record<string, string>): TableCase => {
	(c.pod as { spec: Record<string, unknown> }).spec.resources = { requests };
	return c;
};


const NO_EXTENDED = 'needs a node reporting example.com/aaa (or hugepages-2Mi) allocatable: kubelets here report only cpu, memory, pods, ephemeral-storage and hugepages at 0 (no device plugins; the kubelet rewrites its capacity on every status update)';
const NOT_A_CONTAINER_RESOURCE = 'the API server refuses the pod: a resource name in the kubernetes.io domain that is not a standard one cannot be requested by a container';
const OVERHEAD = "the API server's RuntimeClass admission refuses a pod that sets spec.overhead itself (overhead comes from the pod's RuntimeClass)";
const DRA = 'needs DRA (a DeviceClass backing the extended resource), which the simulation does not run';

export const enoughRequests: PublicTable = {
	test: 'TestEnoughRequests',
	source: 'noderesources/fit_test.go (v1.36)',
	isolation: 'none',
	clusterGroup: 'noderesources',
	plugin: 'NodeResourcesFit',
	profiles: [{ schedulerName: 'fit-ignore-example-bbb', pluginConfig: [{ name: 'NodeResourcesFit', args: { ignoredResources: ['example.com/bbb'] } }] }],
	defaultProfile: 'default-scheduler',
	cases: [
		fitFilter('no resources requested always fits', [milli(10, 20)], [], [], fitsNode),
		fitFilter('too many resources fails', [milli(10, 20)], [milli(1, 1)], [], insufficient('cpu', 'memory')),
		fitFilter('too many resources fails due to init container cpu', [milli(8, 19)], [milli(1, 1)], [milli(3, 1)], insufficient('cpu')),
		fitFilter('too many resources fails due to highest init container cpu', [milli(8, 19)], [milli(1, 1)], [milli(3, 1), milli(2, 1)], insufficient('cpu')),
		fitFilter('too many resources fails due to init container memory', [milli(9, 19)], [milli(1, 1)], [milli(1, 3)], insufficient('memory')),
		fitFilter('too many resources fails due to highest init container memory', [milli(9, 19)], [milli(1, 1)], [milli(1, 3), milli(1, 2)], insufficient('memory')),
		fitFilter("init container fits because it's the max, not sum, of containers and init containers", [milli(9, 19)], [milli(1, 1)], [milli(1, 1)], fitsNode),
		fitFilter("multiple init containers fit because it's the max, not sum, of containers and init containers", [milli(9, 19)], [milli(1, 1)], [milli(1, 1), milli(1, 1)], fitsNode),
		fitFilter('both resources fit', [milli(5, 5)], [milli(1, 1)], [], fitsNode),
		fitFilter('one resource memory fits', [milli(9, 5)], [milli(2, 1)], [], insufficient('cpu')),
		fitFilter('one resource cpu fits', [milli(5, 19)], [milli(1, 2)], [], insufficient('memory')),
		fitFilter('equal edge case', [milli(5, 19)], [milli(5, 1)], [], fitsNode),
		fitFilter('equal edge case for init container', [milli(5, 19)], [milli(4, 1)], [milli(5, 1)], fitsNode),
		fitFilter('extended resource allocatable enforced for unknown resource', [milli(0, 0)], [{ ...milli(1, 1), 'example.com/bbb': '1' }], [], unresolvable('example.com/bbb')),
		fitFilter('extended resource allocatable enforced for unknown resource for init container', [milli(0, 0)], [], [{ ...milli(1, 1), 'example.com/bbb': '1' }], unresolvable('example.com/bbb')),
		fitFilter('skip checking ignored extended resource', [milli(0, 0)], [{ ...milli(1, 1), 'example.com/bbb': '1' }], [], fitsNode, { profile: 'fit-ignore-example-bbb' }),
		withPodLevel(fitFilter('both pod-level and container-level resources fit', [milli(5, 5)], [milli(1, 1)], [], fitsNode), { cpu: '1m', memory: '2' }),
		withPodLevel(fitFilter('pod-level cpu resource not fit', [milli(5, 5)], [milli(1, 1)], [], insufficient('cpu')), { cpu: '7m', memory: '2' }),
		withPodLevel(fitFilter('pod-level memory resource not fit', [milli(5, 19)], [milli(1, 1)], [], insufficient('memory')), { cpu: '3m', memory: '2' }),
		withPodLevel(fitFilter('one pod-level cpu resource fits and all init and non-init containers resources fit', [milli(5, 19)], [milli(1, 1)], [milli(1, 1)], insufficient('memory')), { cpu: '3m', memory: '2' }),
	],
	notExpressible: [
		...['extended resource fits', 'extended resource fits for init container', 'extended resource capacity enforced', 'extended resource capacity enforced for init container', 'extended resource allocatable enforced', 'extended resource allocatable enforced for init container', 'extended resource allocatable enforced for multiple containers', 'extended resource allocatable admits multiple init containers', 'extended resource allocatable enforced for multiple init containers', 'hugepages resource capacity enforced', 'hugepages resource capacity enforced for init container', 'hugepages resource allocatable enforced for multiple containers', 'skip checking extended resource request with quantity zero via resource groups', 'skip checking resource request with quantity zero', 'pod-level hugepages resource fit', 'both pod-level and container-level hugepages resource fit', 'pod-level hugepages resource not fit', 'extended resource backed by device plugin', 'extended resource was backed by Device Plugin (Allocatable: 0)', 'extended resource was backed by Device Plugin (Allocatable: 0), global cache'].map((name) => ({ name, why: NO_EXTENDED })),
		{ name: 'kubernetes.io resource capacity enforced', why: NOT_A_CONTAINER_RESOURCE },
		{ name: 'kubernetes.io resource capacity enforced for init container', why: NOT_A_CONTAINER_RESOURCE },
		{ name: 'skip checking ignored extended resource via resource groups', why: `${NOT_A_CONTAINER_RESOURCE} (the pod also asks for kubernetes.io/something)` },
		{ name: 'resources + pod overhead fits', why: OVERHEAD },
		{ name: 'requests + overhead does not fit for memory', why: OVERHEAD },
		{ name: 'extended resource backed by DRA', why: DRA },
		{ name: 'extended resource backed by DRA, nil draManager', why: DRA },
		{ name: 'extended resource backed by DRA not enabled', why: DRA },
		{ name: 'extended resource NOT backed by DRA', why: `${DRA}; without it the case is the unknown-resource case above` },
	],
};

/** TestNotEnoughRequests' node: allocatable cpu 10m, memory 20, pods 1 (the existing pod takes the one slot). */
const oneSlotNode = () => node('node', '10m', 20, { pods: 1 });
const tooManyPods = { code: 'Unschedulable' as const, reasons: ['Too many pods'] };

export const notEnoughRequests: PublicTable = {
	test: 'TestNotEnoughRequests',
	source: 'noderesources/fit_test.go (v1.36)',
	isolation: 'none',
	clusterGroup: 'noderesources',
	plugin: 'NodeResourcesFit',
	profiles: [],
	defaultProfile: 'default-scheduler',
	cases: [
		fitFilter("even without specified resources, predicate fails when there's no space for additional pod", [milli(10, 20)], [], [], tooManyPods, {}, oneSlotNode),
		fitFilter("even if both resources fit, predicate fails when there's no space for additional pod", [milli(5, 5)], [milli(1, 1)], [], tooManyPods, {}, oneSlotNode),
		fitFilter("even for equal edge case, predicate fails when there's no space for additional pod", [milli(5, 19)], [milli(5, 1)], [], tooManyPods, {}, oneSlotNode),
		fitFilter("even for equal edge case, predicate fails when there's no space for additional pod due to init container", [milli(5, 19)], [milli(5, 1)], [milli(5, 1)], tooManyPods, {}, oneSlotNode),
	],
	notExpressible: [],
};

/** TestRestartableInitContainers' node: allocatable cpu 2m, memory 0, pods 1. */
const tinyNode = () => node('node', '2m', 0, { pods: 1 });
/** newPodWithRestartableInitContainers: a regular container and a sidecar (an init container with restartPolicy Always). */
const withSidecar = (name: string, request?: Record<string, string>, sidecar?: Record<string, string>) => {
	const p = pod(name, request ? { requests: [request] } : { images: ['registry.k8s.io/pause:3.10.2'] });
	(p as { spec: Record<string, unknown> }).spec.initContainers = [{ name: 'restartable-init', image: 'registry.k8s.io/pause:3.10.2', restartPolicy: 'Always', ...(sidecar ? { resources: { requests: sidecar } } : {}) }];
	return p;
};
const SIDECARS_ON = 'needs the SidecarContainers gate off; it is GA and locked on in v1.36';

export const restartableInitContainers: PublicTable = {
	test: 'TestRestartableInitContainers',
	source: 'noderesources/fit_test.go (v1.36)',
	isolation: 'none',
	clusterGroup: 'noderesources',
	plugin: 'NodeResourcesFit',
	profiles: [],
	defaultProfile: 'default-scheduler',
	cases: [
		{ name: 'allow pod without restartable init containers if sidecar containers is enabled', nodes: [tinyNode()], pod: pod('sidecar-1', { images: ['registry.k8s.io/pause:3.10.2'] }), expect: { filter: { node: fitsNode } } },
		{ name: 'allow pod with restartable init containers if sidecar containers is enabled', nodes: [tinyNode()], pod: withSidecar('sidecar-2'), expect: { filter: { node: fitsNode } } },
		{ name: "allow pod if the total requested resources do not exceed the node's allocatable resources", nodes: [tinyNode()], pod: withSidecar('sidecar-3', { cpu: '1m' }, { cpu: '1m' }), expect: { filter: { node: fitsNode } } },
		{ name: "not allow pod if the total requested resources do exceed the node's allocatable resources", nodes: [tinyNode()], pod: withSidecar('sidecar-4', { cpu: '1m' }, { cpu: '2m' }), expect: { filter: { node: unresolvable('cpu') } } },
	],
	notExpressible: [
		{ name: 'allow pod without restartable init containers if sidecar containers is disabled', why: SIDECARS_ON },
		{ name: 'not allow pod with restartable init containers if sidecar containers is disabled', why: SIDECARS_ON },
	],
};

export const storageRequests: PublicTable = {
	test: 'TestStorageRequests',
	source: 'noderesources/fit_test.go (v1.36)',
	isolation: 'none',
	clusterGroup: 'noderesources',
	plugin: 'NodeResourcesFit',
	profiles: [],
	defaultProfile: 'default-scheduler',
	cases: [],
	notExpressible: ['empty storage requested, and pod fits', 'storage ephemeral local storage request exceeds allocatable', 'ephemeral local storage is sufficient', 'pod fits'].map((name) => ({
		name,
		why: "needs a node with 20 bytes of allocatable ephemeral-storage: NodeOptions do not set a node's disk (every kubelet here reports 100Gi, 90Gi allocatable)",
	})),
};

// ---- TestFitScore (fit_test.go): the three strategies through the plugin's own Score ---------

/** An existing pod on `nodeName` with one container and, optionally, a sidecar (st.MakePod().SidecarReq: a restartable init container). */
const withOptionalSidecar = (name: string, nodeName: string, requests: Record<string, string>, sidecar?: Record<string, string>) => {
	const p = pod(name, { nodeName, requests: [requests] });
	if (sidecar) (p as { spec: Record<string, unknown> }).spec.initContainers = [{ name: 'sidecar', image: 'registry.k8s.io/pause:3.10.2', restartPolicy: 'Always', resources: { requests: sidecar } }];
	return p;
};
const fitScoreCase = (name: string, profile: string, incoming: Record<string, string>, expect: Record<string, number>, nodes = () => [n4k('node1'), n6k('node2')], sidecarOnNode1 = false): TableCase => ({
	name,
	nodes: nodes(),
	existingPods: sidecarOnNode1
		? [withOptionalSidecar(`${profile}-${name.length}-e1`, 'node1', cpuMem('1000', '2000'), cpuMem('1000', '2000')), withOptionalSidecar(`${profile}-${name.length}-e2`, 'node2', cpuMem('1000', '2000'))]
		: [withOptionalSidecar(`${profile}-${name.length}-e1`, 'node1', cpuMem('2000', '4000')), withOptionalSidecar(`${profile}-${name.length}-e2`, 'node2', cpuMem('1000', '2000'))],
	pod: pod(`fit-score-${name.length}-${profile}`, { requests: [incoming] }),
	profile,
	expect: { scores: expect },
});

export const fitScore: PublicTable = {
	test: 'TestFitScore',
	source: 'noderesources/fit_test.go (v1.36)',
	isolation: 'none',
	clusterGroup: 'noderesources',
	plugin: 'NodeResourcesFit',
	profiles: [
		fitProfile('requested-to-capacity-ratio-nofilter', { type: 'RequestedToCapacityRatio', resources: cpuAndMemory1, requestedToCapacityRatio: { shape } }, false),
		fitProfile('requested-to-capacity-ratio-rising-nofilter', { type: 'RequestedToCapacityRatio', resources: cpuAndMemory1, requestedToCapacityRatio: { shape: [{ utilization: 0, score: 0 }, { utilization: 100, score: 10 }] } }, false),
	],
	defaultProfile: 'least-allocated',
	cases: [
		{ ...fitScoreCase('test case for ScoringStrategy RequestedToCapacityRatio case1', 'requested-to-capacity-ratio-nofilter', cpuMem('3000', '5000'), { node1: 10, node2: 32 }), note: NO_FILTER_NOTE },
		{ ...fitScoreCase('test case for ScoringStrategy RequestedToCapacityRatio case2', 'requested-to-capacity-ratio-rising-nofilter', cpuMem('3000', '5000'), { node1: 95, node2: 68 }), note: NO_FILTER_NOTE },
		fitScoreCase('test case for ScoringStrategy MostAllocated', 'most-allocated', cpuMem('1000', '2000'), { node1: 67, node2: 36 }),
		fitScoreCase('test case for ScoringStrategy LeastAllocated', 'least-allocated', cpuMem('1000', '2000'), { node1: 32, node2: 63 }),
		fitScoreCase('test case for ScoringStrategy MostAllocated with sidecar container', 'most-allocated', cpuMem('1000', '2000'), { node1: 67, node2: 45 }, () => [n4k('node1'), n4k('node2')], true),
		fitScoreCase('test case for ScoringStrategy LeastAllocated with sidecar container', 'least-allocated', cpuMem('1000', '2000'), { node1: 32, node2: 55 }, () => [n4k('node1'), n4k('node2')], true),
	],
	notExpressible: [
		...['test case for ScoringStrategy RequestedToCapacityRatio case1 if PreScore is not called', 'test case for ScoringStrategy MostAllocated if PreScore is not called', 'test case for ScoringStrategy LeastAllocated if PreScore is not called'].map((name) => ({
			name,
			why: 'the framework always runs PreScore before Score; the same inputs with PreScore are the cases above',
		})),
		{ name: 'test case for ScoringStrategy LeastAllocated with Extended resources', why: DRA },
		{ name: 'test case for ScoringStrategy LeastAllocated with Extended resources if PreScore is not called', why: DRA },
	],
};
