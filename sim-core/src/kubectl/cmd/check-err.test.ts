import { describe, it, expect } from 'vitest';
import { addSourceToErr, checkErr, describeError, plain, usageError, wrap, type KubectlError } from './check-err.ts';

describe('checkErr prints errors as cmdutil.CheckErr does', () => {
	const cases: Array<[string, KubectlError, string, number]> = [
		['a NotFound status', { kind: 'status', code: 404, reason: 'NotFound', message: 'pods "x" not found' }, 'Error from server (NotFound): pods "x" not found', 1],
		['an AlreadyExists status', { kind: 'status', code: 409, reason: 'AlreadyExists', message: 'pods "x" already exists' }, 'Error from server (AlreadyExists): pods "x" already exists', 1],
		['a status without a reason', { kind: 'status', code: 500, reason: '', message: 'error dialing backend' }, 'Error from server: error dialing backend', 1],
		['Unauthorized', { kind: 'status', code: 401, reason: 'Unauthorized', message: 'Unauthorized' }, 'error: You must be logged in to the server (Unauthorized)', 1],
		[
			'a refused connection',
			{ kind: 'transport', failure: 'refused', message: 'dial tcp 192.168.56.10:6443: connect: connection refused', host: '192.168.56.10:6443', method: 'Get', url: 'https://192.168.56.10:6443/api/v1' },
			'The connection to the server 192.168.56.10:6443 was refused - did you specify the right host or port?',
			1,
		],
		[
			'a timed out connection',
			{ kind: 'transport', failure: 'timeout', message: 'dial tcp 192.168.56.10:6443: i/o timeout', host: '192.168.56.10:6443', method: 'Get', url: 'https://192.168.56.10:6443/api/v1' },
			'Unable to connect to the server: dial tcp 192.168.56.10:6443: i/o timeout',
			1,
		],
		['a plain error', plain('must specify one of -f and -k'), 'error: must specify one of -f and -k', 1],
		['a plain error already prefixed', plain('error: deployments.apps "x" is already paused'), 'error: deployments.apps "x" is already paused', 1],
		['an aggregate of one (unwrapped)', { kind: 'aggregate', errors: [plain('boom')] }, 'error: boom', 1],
		['an aggregate of two (one per line, no prefix)', { kind: 'aggregate', errors: [plain('a'), { kind: 'status', code: 404, reason: 'NotFound', message: 'pods "y" not found' }] }, 'a\nError from server (NotFound): pods "y" not found', 1],
		['a remote exit code', { kind: 'exit', message: 'command terminated with exit code 3', code: 3 }, 'command terminated with exit code 3', 3],
	];
	it.each(cases)('prints %s', (_name, error, text, code) => {
		expect(describeError(error)).toEqual({ text, exitCode: code });
	});

	it('prints an Invalid error with one cause on one line', () => {
		const error: KubectlError = { kind: 'status', code: 422, reason: 'Invalid', message: 'x', details: { kind: 'Deployment', name: 'web', causes: [{ field: 'spec.replicas', message: 'Invalid value: -1: must be greater than or equal to 0' }] } };
		expect(describeError(error).text).toBe('The Deployment "web" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0');
	});

	it('prints an Invalid error with several causes as a bulleted list after a trailing space', () => {
		const error: KubectlError = {
			kind: 'status',
			code: 422,
			reason: 'Invalid',
			message: 'x',
			details: { kind: 'Pod', name: 'p', causes: [{ field: 'spec.containers[0].image', message: 'Required value' }, { field: 'metadata.name', message: 'Required value' }] },
		};
		expect(describeError(error).text).toBe('The Pod "p" is invalid: \n* spec.containers[0].image: Required value\n* metadata.name: Required value');
	});

	it('adds the source file to a server error and keeps its reason (AddSourceToErr)', () => {
		const error = addSourceToErr('creating', 'web.yaml', { kind: 'status', code: 409, reason: 'AlreadyExists', message: 'deployments.apps "web" already exists' });
		expect(checkErr(error).stderr).toBe('Error from server (AlreadyExists): error when creating "web.yaml": deployments.apps "web" already exists\n');
	});

	it('wraps a server error in a plain message as fmt.Errorf("%v") does', () => {
		const error = wrap('failed to create deployment: ', { kind: 'status', code: 409, reason: 'AlreadyExists', message: 'deployments.apps "web" already exists' });
		expect(checkErr(error)).toEqual({ stdout: '', stderr: 'error: failed to create deployment: deployments.apps "web" already exists\n', exitCode: 1 });
	});

	it('adds the help pointer to usage errors (UsageErrorf)', () => {
		expect(checkErr(usageError('kubectl create deployment', 'exactly one NAME is required, got 0')).stderr).toBe("error: exactly one NAME is required, got 0\nSee 'kubectl create deployment -h' for help and examples\n");
	});

	it('keeps what the command printed before it failed', () => {
		expect(checkErr(plain('x'), 'pod/a created\n', 'Warning: w\n')).toEqual({ stdout: 'pod/a created\n', stderr: 'Warning: w\nerror: x\n', exitCode: 1 });
	});
});
