/**
 * Chunked lists through the whole cluster, as the Conformance suite checks
 * them (test/e2e/apimachinery/chunking.go, v1.36): 400 PodTemplates listed
 * in pages of a random size, every page from one resourceVersion with an
 * exact remainingItemCount; and a continue token outliving etcd's
 * compaction, refused with 410 Expired and a token for an inconsistent
 * remainder, which then lists the rest at a newer revision.
 */
import { describe, expect, it } from 'vitest';
import { createCluster } from '../../../index.ts';
import type { CallResult } from '../../../client/client.ts';
import type { KubeList } from '../../../api/types.ts';
import { Rng, deriveRngState } from '../../../sim/rng.ts';

const TOTAL = 400;
const PODTEMPLATES = { group: '', version: 'v1', resource: 'podtemplates' };

/** The suite's BeforeEach: template-0000 ... template-0399 in a fresh namespace. */
function withTemplates(seed: number) {
	const c = createCluster({ seed });
	c.exec('kubectl create namespace chunking');
	const docs = Array.from({ length: TOTAL }, (_, i) => `apiVersion: v1\nkind: PodTemplate\nmetadata:\n  name: template-${String(i).padStart(4, '0')}\ntemplate:\n  spec:\n    containers:\n    - name: test\n      image: registry.k8s.io/pause:3.10\n`);
	c.writeFile('templates.yaml', docs.join('---\n'));
	const created = c.exec('kubectl create -n chunking -f templates.yaml');
	expect(created.exitCode).toBe(0);
	return { c, client: c.client('kubectl') };
}

function ok(result: CallResult<KubeList>): KubeList {
	if (!result.ok) throw new Error(`list failed: ${result.code} ${result.message}`);
	return result.object;
}

const nameAt = (i: number) => `template-${String(i).padStart(4, '0')}`;

describe('[sig-api-machinery] Servers with support for API chunking', () => {
	it('should return chunks of results for list calls [Conformance]', () => {
		const { client } = withTemplates(1);
		const random = new Rng(deriveRngState(7, 'chunking'));
		for (let round = 0; round < 3; round++) {
			let found = 0;
			let lastRV = '';
			let token: string | undefined;
			for (;;) {
				const limit = random.int(TOTAL / 10) + 1;
				const list = ok(client.list(PODTEMPLATES, 'chunking', token ? { limit, continue: token } : { limit }));
				expect(list.items.length).toBeLessThanOrEqual(limit);
				lastRV ||= list.metadata.resourceVersion!;
				expect(list.metadata.resourceVersion).toBe(lastRV);
				if (!list.metadata.continue) expect(list.metadata.remainingItemCount).toBeUndefined();
				else expect(found + list.items.length + list.metadata.remainingItemCount!).toBe(TOTAL);
				for (const item of list.items) expect(item.metadata.name).toBe(nameAt(found++));
				if (!list.metadata.continue) break;
				token = list.metadata.continue;
			}
			expect(found).toBe(TOTAL);
		}
		// All at once.
		expect(ok(client.list(PODTEMPLATES, 'chunking', { limit: TOTAL + 1 })).items).toHaveLength(TOTAL);
	});

	it('should support continue listing from the last key if the original version has been compacted away, though the list is inconsistent [Slow] [Conformance]', () => {
		const { c, client } = withTemplates(2);
		const oneTenth = TOTAL / 10;
		const first = ok(client.list(PODTEMPLATES, 'chunking', { limit: oneTenth }));
		const firstToken = first.metadata.continue!;
		const firstRV = first.metadata.resourceVersion;
		expect(firstToken).toBeTruthy();

		// Retrieving the second page until the token expires: polled every 20 s for up to twice the compaction interval.
		let inconsistentToken = '';
		for (let waited = 0; waited <= 10 * 60_000 && !inconsistentToken; waited += 20_000) {
			const again = client.list(PODTEMPLATES, 'chunking', { limit: oneTenth, continue: firstToken });
			if (!again.ok) {
				expect(again).toMatchObject({ code: 410, reason: 'Expired' });
				expect(again.message).toContain('The provided continue parameter is too old to display a consistent list result.');
				inconsistentToken = again.continue ?? '';
				expect(inconsistentToken).not.toBe('');
			} else c.advance('20s');
		}
		expect(inconsistentToken).not.toBe('');

		// The second page again, with the token the error carried: a newer revision, the same position.
		const second = ok(client.list(PODTEMPLATES, 'chunking', { limit: oneTenth, continue: inconsistentToken }));
		expect(second.metadata.resourceVersion).not.toBe(firstRV);
		expect(second.items).toHaveLength(oneTenth);
		let found = oneTenth;
		expect(second.metadata.remainingItemCount! + second.items.length + found).toBe(TOTAL);
		for (const item of second.items) expect(item.metadata.name).toBe(nameAt(found++));

		// All remaining pages, each at the revision of the second.
		let token = second.metadata.continue;
		const lastRV = second.metadata.resourceVersion;
		while (token) {
			const list = ok(client.list(PODTEMPLATES, 'chunking', { limit: oneTenth, continue: token }));
			if (list.metadata.continue) expect(list.metadata.remainingItemCount! + list.items.length + found).toBe(TOTAL);
			expect(list.metadata.resourceVersion).toBe(lastRV);
			for (const item of list.items) expect(item.metadata.name).toBe(nameAt(found++));
			token = list.metadata.continue;
		}
		expect(found).toBe(TOTAL);
	});
});

describe('chunked lists', () => {
	it('keep every page on the first page\'s snapshot while objects change, and kubectl joins the pages', () => {
		const c = createCluster({ seed: 3 });
		for (const name of ['a', 'b', 'c', 'd', 'e']) c.exec(`kubectl create configmap ${name}`);
		const client = c.client('kubectl');
		const configmaps = { group: '', version: 'v1', resource: 'configmaps' };
		const first = ok(client.list(configmaps, 'default', { limit: 2 }));
		expect(first.items.map((i) => i.metadata.name)).toEqual(['a', 'b']);
		expect(first.metadata.remainingItemCount).toBe(4);
		c.exec('kubectl delete configmap c');
		c.exec('kubectl create configmap bb');
		// The deleted one is still in this list, the new one is not: one snapshot.
		const second = ok(client.list(configmaps, 'default', { limit: 2, continue: first.metadata.continue }));
		expect(second.items.map((i) => i.metadata.name)).toEqual(['c', 'd']);
		expect(second.metadata.resourceVersion).toBe(first.metadata.resourceVersion);
		// A selector hides the count (it would be wrong), resourceVersion=0 ignores the limit.
		expect(ok(client.list(configmaps, 'default', { limit: 1, labelSelector: 'x!=y' })).metadata).not.toHaveProperty('remainingItemCount');
		expect(ok(client.list(configmaps, 'default', { limit: 1, resourceVersion: '0' })).items).toHaveLength(6);

		const pages = c.exec('kubectl get cm --chunk-size=2 -o name -v=6');
		expect(pages.stdout).toBe('configmap/a\nconfigmap/b\nconfigmap/bb\nconfigmap/d\nconfigmap/e\nconfigmap/kube-root-ca.crt\n');
		expect(pages.stderr.match(/"Response" verb="GET" url="[^"]*configmaps\?[^"]*"/g)).toEqual([
			expect.stringContaining('configmaps?limit=2"'),
			expect.stringMatching(/configmaps\?continue=[\w-]+&limit=2"/),
			expect.stringMatching(/configmaps\?continue=[\w-]+&limit=2"/),
		]);
	});

	it('refuse a bad token and a resourceVersion beside a token with the API server\'s words', () => {
		const c = createCluster({ seed: 4 });
		expect(c.exec("kubectl get --raw '/api/v1/namespaces/default/configmaps?limit=1&continue=abc'").stderr).toBe(
			"Error from server (BadRequest): invalid continue token: continue key is not valid: invalid character 'i' looking for beginning of value\n",
		);
		expect(c.exec("kubectl get --raw '/api/v1/namespaces/default/configmaps?limit=1&continue=a!'").stderr).toBe('Error from server (BadRequest): invalid continue token: continue key is not valid: illegal base64 data at input byte 1\n');
		const climbing = Buffer.from('{"v":"meta.k8s.io/v1","rv":5,"start":"../secrets/x"}').toString('base64url');
		expect(c.exec(`kubectl get --raw '/api/v1/namespaces/default/configmaps?limit=1&continue=${climbing}'`).stderr).toBe('Error from server (BadRequest): invalid continue token: continue key is not valid: ../secrets/x\n');
		const token = ok(c.client('kubectl').list({ group: '', version: 'v1', resource: 'namespaces' }, undefined, { limit: 1 })).metadata.continue;
		expect(c.exec(`kubectl get --raw '/api/v1/namespaces?limit=1&continue=${token}&resourceVersion=1'`).stderr).toBe('Error from server (BadRequest): specifying resource version is not allowed when using continue\n');
	});
});
