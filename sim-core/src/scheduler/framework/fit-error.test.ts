import { describe, expect, it } from 'vitest';
import { FitError, newDiagnosis, truncateMessage } from './fit-error.ts';
import { Code, Status } from './status.ts';

const unschedulable = (...reasons: string[]) => new Status(Code.Unschedulable, reasons);
const unresolvable = (...reasons: string[]) => new Status(Code.UnschedulableAndUnresolvable, reasons);

function fitError(numAllNodes: number, statuses: Array<[string, Status]>, extra: { preFilterMsg?: string; postFilterMsg?: string; absent?: Status } = {}): string {
	const d = newDiagnosis();
	for (const [node, s] of statuses) d.nodeToStatus.set(node, s);
	if (extra.absent) d.nodeToStatus.setAbsentNodesStatus(extra.absent);
	d.preFilterMsg = extra.preFilterMsg ?? '';
	d.postFilterMsg = extra.postFilterMsg ?? '';
	return new FitError(numAllNodes, d).message();
}

// FitError.Error() (pkg/scheduler/framework/types.go): reasons counted over nodes, "<count> <reason>",
// sorted as strings, joined with ", "; "0/X nodes are available: <PreFilterMsg>. <FilterMsg>. <PostFilterMsg>".
describe('the FitError message', () => {
	it.each([
		{
			name: 'counts each reason over the nodes',
			n: 3,
			statuses: [['a', unschedulable('Insufficient cpu')], ['b', unschedulable('Insufficient cpu')], ['c', unresolvable("node(s) didn't match Pod's node affinity/selector")]] as Array<[string, Status]>,
			want: "0/3 nodes are available: 1 node(s) didn't match Pod's node affinity/selector, 2 Insufficient cpu.",
		},
		{
			name: 'counts every reason of a node with several (cpu and memory)',
			n: 2,
			statuses: [['a', unschedulable('Insufficient cpu', 'Insufficient memory')], ['b', unschedulable('Insufficient memory')]] as Array<[string, Status]>,
			want: '0/2 nodes are available: 1 Insufficient cpu, 2 Insufficient memory.',
		},
		{
			name: 'sorts "<count> <reason>" as strings, so 10 comes before 2',
			n: 12,
			statuses: [
				...Array.from({ length: 10 }, (_, i) => [`t${i}`, unresolvable('node(s) had untolerated taint(s)')] as [string, Status]),
				['a', unschedulable('Insufficient cpu')],
				['b', unschedulable('Insufficient cpu')],
			] as Array<[string, Status]>,
			want: '0/12 nodes are available: 10 node(s) had untolerated taint(s), 2 Insufficient cpu.',
		},
		{
			name: 'adds the absent nodes with the absent status (PreFilterResult narrowed the nodes)',
			n: 5,
			statuses: [['a', unschedulable('Insufficient cpu')]] as Array<[string, Status]>,
			absent: unresolvable("node(s) didn't satisfy plugin(s) [NodeAffinity]"),
			want: "0/5 nodes are available: 1 Insufficient cpu, 4 node(s) didn't satisfy plugin(s) [NodeAffinity].",
		},
		{
			name: 'uses the PreFilter message instead of per-node counts',
			n: 3,
			statuses: [] as Array<[string, Status]>,
			preFilterMsg: 'pod affinity terms conflict',
			want: '0/3 nodes are available: pod affinity terms conflict.',
		},
		{
			name: "appends PostFilter's (preemption's) message as it is",
			n: 3,
			statuses: [['a', unschedulable('Insufficient cpu')], ['b', unschedulable('Insufficient cpu')], ['c', unschedulable('Insufficient cpu')]] as Array<[string, Status]>,
			postFilterMsg: 'preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod.',
			want: '0/3 nodes are available: 3 Insufficient cpu. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod.',
		},
		{
			name: 'says only the total when no node gave a reason',
			n: 0,
			statuses: [] as Array<[string, Status]>,
			want: '0/0 nodes are available:',
		},
	])('$name', ({ n, statuses, absent, preFilterMsg, postFilterMsg, want }) => {
		expect(fitError(n, statuses, { absent, preFilterMsg, postFilterMsg })).toBe(want);
	});

	it('puts an error status first in the reasons (Status.Reasons)', () => {
		expect(new Status(Code.Unschedulable, ['b'], 'a').message()).toBe('a, b');
	});

	it('cuts event messages at 1024 characters with " ..." (truncateMessage)', () => {
		const long = 'x'.repeat(1500);
		expect(truncateMessage(long)).toBe(`${'x'.repeat(1020)} ...`);
		expect(truncateMessage(long).length).toBe(1024);
		expect(truncateMessage('short')).toBe('short');
	});
});
