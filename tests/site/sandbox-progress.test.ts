/** Task progress (src/sandbox/progress.ts): kept per scenario, tolerant of whatever storage holds. */
import { describe, expect, it } from 'vitest';
import { clearProgress, emptyProgress, loadProgress, parseProgress, progressKey, saveProgress, taskProgress, withTask, type KeyValueStore } from '../../src/sandbox/progress.ts';

function memoryStore(): KeyValueStore & { data: Map<string, string> } {
	const data = new Map<string, string>();
	return { data, getItem: (k) => data.get(k) ?? null, setItem: (k, v) => void data.set(k, v), removeItem: (k) => void data.delete(k) };
}

describe('task progress', () => {
	it('saves and loads per scenario', () => {
		const store = memoryStore();
		const progress = withTask(withTask(emptyProgress(), 'a', { done: true }), 'b', { hints: 2 });
		saveProgress('start/overview', progress, store);
		expect(loadProgress('start/overview', store)).toEqual(progress);
		expect(loadProgress('control-plane/etcd', store)).toEqual(emptyProgress());
		expect([...store.data.keys()]).toEqual([progressKey('start/overview')]);
		clearProgress('start/overview', store);
		expect(loadProgress('start/overview', store)).toEqual(emptyProgress());
	});

	it('reads an unknown task as not started', () => {
		expect(taskProgress(emptyProgress(), 'x')).toEqual({ done: false, hints: 0, revealed: false });
	});

	it.each([['not JSON', '{'], ['another version', '{"v":2,"tasks":{}}'], ['tasks not an object', '{"v":1,"tasks":[1]}'], ['null', 'null']])('reads %s as no progress', (_what, text) => {
		expect(parseProgress(text)).toEqual(emptyProgress());
	});

	it('cleans odd values', () => {
		expect(parseProgress('{"v":1,"tasks":{"a":{"done":"yes","hints":-3,"revealed":true},"b":null}}')).toEqual({ v: 1, tasks: { a: { done: false, hints: 0, revealed: true } } });
	});

	it('survives storage that throws', () => {
		const broken: KeyValueStore = {
			getItem: () => {
				throw new Error('denied');
			},
			setItem: () => {
				throw new Error('full');
			},
			removeItem: () => {
				throw new Error('denied');
			},
		};
		expect(loadProgress('s', broken)).toEqual(emptyProgress());
		expect(() => saveProgress('s', emptyProgress(), broken)).not.toThrow();
		expect(() => clearProgress('s', broken)).not.toThrow();
	});
});
