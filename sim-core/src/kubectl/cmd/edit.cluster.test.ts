/**
 * kubectl edit through the public API, with the editor played by the texts
 * the reader saves: the header and the object as opened, a save that
 * scales a Deployment, a cancelled edit, an empty save, an invalid save
 * that reopens the editor with the server's causes, and a copy of the edits
 * kept in /tmp when the reader gives up.
 */
import { describe, expect, it } from 'vitest';
import { Cluster } from '../../cluster/cluster.ts';

function cluster(): Cluster {
	const c = new Cluster({ seed: 5 });
	expect(c.exec('kubectl create deployment web --image=nginx:1.27 --replicas=2').exitCode).toBe(0);
	c.settle({ maxMs: 120_000 });
	return c;
}

const HEADER = "# Please edit the object below. Lines beginning with a '#' will be ignored,\n# and an empty file will abort the edit. If an error occurs while saving this file will be\n# reopened with the relevant failures.\n#\n";

describe('kubectl edit', () => {
	it('opens the object under kubectl\'s header, without managedFields; closing it unchanged cancels', () => {
		const c = cluster();
		const r = c.exec('kubectl edit deployment web');
		expect(r.editor).toHaveLength(1);
		expect(r.editor![0].startsWith(HEADER + 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n')).toBe(true);
		expect(r.editor![0]).toContain('  replicas: 2\n');
		expect(r.editor![0]).not.toContain('managedFields');
		expect(r).toMatchObject({ stdout: '', stderr: 'Edit cancelled, no changes made.\n', exitCode: 0 });
	});

	it('sends what was saved as a patch: the Deployment scales', () => {
		const c = cluster();
		const opened = c.exec('kubectl edit deploy/web').editor![0];
		const r = c.exec('kubectl edit deploy/web', { edit: { opened, saves: [opened.replace('  replicas: 2\n', '  replicas: 3\n')] } });
		expect(r).toMatchObject({ stdout: 'deployment.apps/web edited\n', stderr: '', exitCode: 0 });
		c.settle({ maxMs: 120_000 });
		expect(c.exec('kubectl get deploy web --no-headers').stdout).toMatch(/^web\s+3\/3\s/);
	});

	it('diffs against the text as opened: changes the controllers made while the editor was open stay', () => {
		const c = cluster();
		const opened = c.exec('kubectl edit deploy web').editor![0];
		// While the reader types, someone else labels the Deployment (a new resourceVersion).
		expect(c.exec('kubectl label deploy web team=blue').exitCode).toBe(0);
		c.advance(5_000);
		const r = c.exec('kubectl edit deploy web', { edit: { opened, saves: [opened.replace('  replicas: 2\n', '  replicas: 1\n')] } });
		expect(r.stdout).toBe('deployment.apps/web edited\n');
		expect(c.exec("kubectl get deploy web -o jsonpath='{.spec.replicas} {.metadata.labels.team}'").stdout).toBe('1 blue');
	});

	it('cancels an empty save', () => {
		const c = cluster();
		expect(c.exec('kubectl edit deploy web', { edit: { saves: ['# nothing left\n\n'] } })).toMatchObject({ stderr: 'Edit cancelled, saved file was empty.\n', exitCode: 0 });
	});

	it('reopens an invalid save with the server\'s causes; a fixed save goes through', () => {
		const c = cluster();
		const opened = c.exec('kubectl edit deploy web').editor![0];
		const bad = opened.replace('  replicas: 2\n', '  replicas: -1\n');
		const r = c.exec('kubectl edit deploy web', { edit: { opened, saves: [bad, bad.replace('  replicas: -1\n', '  replicas: 4\n')] } });
		expect(r.editor).toHaveLength(2);
		expect(r.editor![1].startsWith(HEADER + '# deployments.apps "web" was not valid:\n# * spec.replicas: Invalid value: -1: must be greater than or equal to 0\n#\n')).toBe(true);
		expect(r.stderr).toBe('error: deployments.apps "web" is invalid\n');
		expect(r.stdout).toBe('deployment.apps/web edited\n');
		expect(r.output).toBe('error: deployments.apps "web" is invalid\ndeployment.apps/web edited\n');
		expect(r.exitCode).toBe(0);
	});

	it('keeps a copy of the edits when the reader closes the reopened file unchanged', () => {
		const c = cluster();
		const opened = c.exec('kubectl edit deploy web').editor![0];
		const bad = opened.replace('  replicas: 2\n', '  replicas: -1\n');
		const r = c.exec('kubectl edit deploy web', { edit: { opened, saves: [bad] } });
		const file = /A copy of your changes has been stored to "(\/tmp\/kubectl-edit-\d+\.yaml)"/.exec(r.stderr)?.[1];
		expect(file).toBeDefined();
		expect(r.stderr).toContain('error: Edit cancelled, no valid changes were saved.\n');
		expect(r.exitCode).toBe(1);
		expect(c.exec(`cat ${file}`).stdout).toContain('  replicas: -1\n');
		expect(c.exec("kubectl get deploy web -o jsonpath='{.spec.replicas}'").stdout).toBe('2');
	});

	it('answers a missing object as kubectl does, and opens no editor', () => {
		const c = cluster();
		const r = c.exec('kubectl edit deploy nope');
		expect(r.editor).toBeUndefined();
		expect(r).toMatchObject({ stderr: 'Error from server (NotFound): deployments.apps "nope" not found\n', exitCode: 1 });
	});

	it('replays to the same cluster from its recorded inputs', () => {
		const c = cluster();
		const opened = c.exec('kubectl edit deploy web').editor![0];
		c.exec('kubectl edit deploy web', { edit: { opened, saves: [opened.replace('  replicas: 2\n', '  replicas: 3\n')] } });
		c.settle({ maxMs: 60_000 });
		const again = new Cluster({ seed: 5 });
		for (const input of c.inputs()) again.apply(input);
		expect(again.fingerprint()).toBe(c.fingerprint());
	});
});
