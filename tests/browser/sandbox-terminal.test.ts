/**
 * The sandbox terminal, driven through the keyboard as a reader would:
 * commands and their output, Tab completion, history, clear, Ctrl+C, the
 * scenario's suggested command, and output announced politely.
 */
import { describe, expect, it } from 'vitest';
import { run, useStartedSandbox } from './sandbox-helpers.ts';

const s = useStartedSandbox();

describe('the sandbox terminal', () => {
	it('replaces the suggested command when the reader clicks the prompt and types what the page says', async () => {
		const input = s.sandbox.locator('.ca-term__input');
		await s.page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
		// The suggestion is on the prompt until the first command: this test runs first.
		await expect.poll(() => input.inputValue()).toBe('kubectl get pods -n kube-system -o wide');
		await input.click();
		await s.page.keyboard.type('kubectl get nodes');
		expect(await input.inputValue()).toBe('kubectl get nodes');
		await input.fill('kubectl get pods -n kube-system -o wide');
	});

	it('offers the scenario\'s suggested command on the prompt, ready for Enter', async () => {
		await expect.poll(() => s.sandbox.locator('.ca-term__input').inputValue()).toBe('kubectl get pods -n kube-system -o wide');
		const output = await run(s.sandbox, 'kubectl get pods -n kube-system -o wide');
		expect(output).toMatch(/^NAME\s+READY\s+STATUS/);
		expect(output).toMatch(/etcd-control-plane\s+1\/1\s+Running/);
	});

	it('runs kubectl and shows its output and its errors, with the prompt', async () => {
		expect(await run(s.sandbox, 'kubectl get nodes')).toMatch(/control-plane\s+Ready\s+control-plane/);
		const failed = s.sandbox.locator('.ca-term__entry').last();
		expect(await run(s.sandbox, 'kubectl get pod nothing-here')).toContain('Error from server (NotFound): pods "nothing-here" not found');
		await expect.poll(() => failed.getAttribute('class')).toContain('ca-term__entry--failed');
		await expect.poll(() => s.sandbox.locator('.ca-term__entry').last().locator('.ca-term__prompt').innerText()).toBe('reader@workstation:~$ ');
	});

	it('reaches a node with ssh: the prompt changes', async () => {
		await run(s.sandbox, 'ssh node-1');
		expect(await s.sandbox.locator('.ca-term__form .ca-term__prompt').innerText()).toMatch(/node-1/);
		await run(s.sandbox, 'exit');
		expect(await s.sandbox.locator('.ca-term__form .ca-term__prompt').innerText()).toMatch(/workstation/);
	});

	it('runs a one-shot pod with kubectl run --rm -it, and opens a container shell with kubectl exec -it', async () => {
		expect(await run(s.sandbox, 'kubectl run tmp --rm -it --image=busybox:1.36 --restart=Never -- echo hi')).toMatch(/^hi\npod "tmp" deleted from default namespace\n?$/);
		await run(s.sandbox, 'kubectl run bb --image=busybox:1.36 -- sleep 3600');
		await run(s.sandbox, 'kubectl wait --for=condition=Ready pod/bb --timeout=60s');
		await run(s.sandbox, 'kubectl exec -it bb -- sh');
		try {
			expect(await s.sandbox.locator('.ca-term__form .ca-term__prompt').innerText()).toMatch(/^\/ #/);
			expect(await run(s.sandbox, 'hostname')).toMatch(/^bb\n?$/);
		} finally {
			await run(s.sandbox, 'exit');
		}
		expect(await s.sandbox.locator('.ca-term__form .ca-term__prompt').innerText()).toMatch(/workstation/);
		await run(s.sandbox, 'kubectl delete pod bb --wait=false');
	});

	it('runs the node tools over ssh, and curl against the API server', async () => {
		expect(await run(s.sandbox, 'curl -sk https://192.168.56.10:6443/healthz')).toBe('ok');
		await run(s.sandbox, 'ssh node-1');
		expect(await run(s.sandbox, 'crictl ps')).toMatch(/CONTAINER\s+IMAGE[\s\S]*kube-proxy/);
		expect(await run(s.sandbox, 'systemctl status kubelet')).toContain('Active: active (running)');
		expect(await run(s.sandbox, 'journalctl -u kubelet --no-pager')).toContain('kubelet');
		await run(s.sandbox, 'exit');
	});

	it('opens kubectl edit\'s editor in the terminal: an invalid save reopens it with the reason, a valid one edits, Escape cancels', async () => {
		await run(s.sandbox, 'kubectl create deployment edited --image=nginx:1.27 --replicas=1');
		const input = s.sandbox.locator('.ca-term__input');
		await input.fill('kubectl edit deployment edited');
		await input.press('Enter');
		const editor = s.sandbox.getByRole('textbox', { name: 'Editor opened by kubectl edit deployment edited' });
		await expect.poll(() => editor.evaluate((el) => el === document.activeElement)).toBe(true);
		expect(await editor.inputValue()).toMatch(/^# Please edit the object below\.[\s\S]*^ {2}replicas: 1$/m);
		expect(await s.sandbox.locator('.ca-term__form').isHidden()).toBe(true);

		// An invalid value: kubectl reopens the editor with the API server's reason on top.
		await editor.fill((await editor.inputValue()).replace(/^ {2}replicas: 1$/m, '  replicas: -1'));
		await editor.press('Control+s');
		await expect.poll(() => editor.inputValue()).toMatch(/^# deployments\.apps "edited" was not valid:\n# \* spec\.replicas: Invalid value: -1: must be greater than or equal to 0$/m);
		await editor.fill((await editor.inputValue()).replace(/^ {2}replicas: -1$/m, '  replicas: 2'));
		await s.sandbox.getByRole('button', { name: 'Save and close' }).click();
		const entry = s.sandbox.locator('.ca-term__entry').filter({ hasText: 'kubectl edit deployment edited' }).last();
		await expect.poll(() => entry.locator('.ca-term__out').innerText()).toBe('error: deployments.apps "edited" is invalid\ndeployment.apps/edited edited\n');
		await expect.poll(() => input.evaluate((el) => el === document.activeElement)).toBe(true);
		expect(await run(s.sandbox, 'kubectl get deployment edited -o jsonpath={.spec.replicas}')).toBe('2');

		await input.fill('kubectl edit deployment edited');
		await input.press('Enter');
		await expect.poll(() => editor.evaluate((el) => el === document.activeElement)).toBe(true);
		await editor.press('Escape');
		await expect.poll(() => s.sandbox.locator('.ca-term__entry').last().locator('.ca-term__out').innerText()).toBe('Edit cancelled, no changes made.\n');
		await run(s.sandbox, 'kubectl delete deployment edited');
	});

	it('completes commands, verbs, kinds and object names with Tab', async () => {
		const input = s.sandbox.locator('.ca-term__input');
		await input.fill('kubec');
		await input.press('Tab');
		await expect.poll(() => input.inputValue()).toBe('kubectl ');
		await input.pressSequentially('descr');
		await input.press('Tab');
		await expect.poll(() => input.inputValue()).toBe('kubectl describe ');
		await input.pressSequentially('no');
		await input.press('Tab');
		// 'no' is a short name and a prefix of 'node', 'nodes': the line stays, the choices are listed.
		await expect.poll(() => s.sandbox.locator('.ca-term__entry--note').last().innerText()).toMatch(/\bnode\s+nodes\b/);
		expect(await input.inputValue()).toBe('kubectl describe no');
		await input.fill('kubectl describe nodes node-');
		await input.press('Tab');
		const note = s.sandbox.locator('.ca-term__entry--note').last();
		await expect.poll(() => note.innerText()).toContain('node-1  node-2');
		await input.pressSequentially('2');
		await input.press('Tab');
		await expect.poll(() => input.inputValue()).toBe('kubectl describe nodes node-2 ');
		await input.fill('kubectl -n kube-system get pods etcd');
		await input.press('Tab');
		await expect.poll(() => input.inputValue()).toBe('kubectl -n kube-system get pods etcd-control-plane ');
		await input.fill('');
	});

	it('leaves the keyboard free: Tab on an empty line, or after Escape, moves focus on', async () => {
		const input = s.sandbox.locator('.ca-term__input');
		await input.fill('');
		await input.focus();
		await input.press('Tab');
		expect(await input.evaluate((el) => el === document.activeElement)).toBe(false);
		await input.fill('kubectl get');
		await input.focus();
		await input.press('Escape');
		await input.press('Tab');
		expect(await input.evaluate((el) => el === document.activeElement)).toBe(false);
		await input.fill('');
	});

	it('recalls earlier commands with ↑ and ↓', async () => {
		const input = s.sandbox.locator('.ca-term__input');
		await run(s.sandbox, 'kubectl get ns');
		await run(s.sandbox, 'kubectl version');
		await input.focus();
		await input.pressSequentially('draft');
		await input.press('ArrowUp');
		expect(await input.inputValue()).toBe('kubectl version');
		await input.press('ArrowUp');
		expect(await input.inputValue()).toBe('kubectl get ns');
		await input.press('ArrowDown');
		await input.press('ArrowDown');
		expect(await input.inputValue()).toBe('draft');
		await input.fill('');
	});

	it('drops the line with Ctrl+C and empties the screen with clear', async () => {
		const input = s.sandbox.locator('.ca-term__input');
		await input.fill('kubectl delete node node-1');
		await input.press('Control+c');
		expect(await input.inputValue()).toBe('');
		await expect.poll(() => s.sandbox.locator('.ca-term__entry').last().innerText()).toContain('kubectl delete node node-1^C');
		await input.fill('clear');
		await input.press('Enter');
		await expect.poll(() => s.sandbox.locator('.ca-term__entry').count()).toBe(0);
		// The node was not deleted.
		expect(await run(s.sandbox, 'kubectl get nodes -o name')).toContain('node/node-1');
	});

	it('announces output politely and lets the reader copy it', async () => {
		const screen = s.sandbox.locator('.ca-term__screen');
		expect(await screen.getAttribute('role')).toBe('log');
		expect(await screen.getAttribute('aria-live')).toBe('polite');
		await s.context.grantPermissions(['clipboard-read', 'clipboard-write']);
		await run(s.sandbox, 'kubectl get nodes -o name');
		await s.sandbox.getByRole('button', { name: 'Copy last output' }).click();
		await expect.poll(() => s.page.evaluate(() => navigator.clipboard.readText())).toBe('node/control-plane\nnode/node-1\nnode/node-2\n');
		await expect.poll(() => s.sandbox.locator('.ca-sbx-copy__status').first().innerText()).toBe('Copied.');
	});

	it("runs a pasted here-document as a terminal does, then kubectl kustomize prints the page's ConfigMap", async () => {
		const input = s.sandbox.locator('.ca-term__input');
		const before = await s.sandbox.locator('.ca-term__entry:not(.ca-term__entry--note)').count();
		// kubernetes.io's block, pasted with its line breaks, the last line not yet ended.
		const pasted = 'cat <<EOF >./kustomization.yaml\nconfigMapGenerator:\n- name: example-configmap-2\n  literals:\n  - FOO=Bar\nEOF\nkubectl kustomize ./';
		await input.evaluate((field, text) => {
			const data = new DataTransfer();
			data.setData('text/plain', text);
			field.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
		}, pasted);
		// The complete lines ran; the unfinished one waits at the prompt for Enter.
		await expect.poll(() => s.sandbox.locator('.ca-term__entry:not(.ca-term__entry--note)').count()).toBe(before + 1);
		await expect.poll(() => input.inputValue()).toBe('kubectl kustomize ./');
		expect(await run(s.sandbox, 'kubectl kustomize ./')).toBe('apiVersion: v1\ndata:\n  FOO: Bar\nkind: ConfigMap\nmetadata:\n  name: example-configmap-2-g2hdhfc6tk\n');
	});

	it('logged no console error and no CSP violation', () => {
		expect(s.problems).toEqual([]);
	});
});
