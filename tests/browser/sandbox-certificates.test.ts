/**
 * The API server chapter's sandbox, as a reader follows "A new user is a
 * certificate the cluster signed": a key and a request made with openssl,
 * the CertificateSigningRequest pasted as kubernetes.io writes it (a
 * here-document with the request's base64 substituted), approved, the
 * certificate read back with openssl and put in a kubeconfig; then jane's
 * own context, refused until a RoleBinding lets her in. The chapter's third
 * task notices it is done.
 */
import { describe, expect, it } from 'vitest';
import { openTab, run, useStartedSandbox } from './sandbox-helpers.ts';

// The clock runs, as it does for a reader: the signing controller acts a moment after the approval.
const s = useStartedSandbox({ path: 'control-plane/kube-apiserver/', scenario: 'control-plane/kube-apiserver', clock: 'running' });

/** Pastes a block with its line breaks, as a reader pastes from a page, then presses Enter on its last line. */
async function paste(text: string): Promise<void> {
	const input = s.sandbox.locator('.ca-term__input');
	await input.evaluate((field, block) => {
		const data = new DataTransfer();
		data.setData('text/plain', block);
		field.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
	}, text);
}

describe('a certificate for jane, in the sandbox', () => {
	it('makes a key and a request with openssl', async () => {
		expect(await run(s.sandbox, 'openssl genrsa -out jane.key 2048')).toBe('');
		expect(await run(s.sandbox, 'openssl req -new -key jane.key -out jane.csr -subj "/CN=jane/O=dev"')).toBe('');
		expect(await run(s.sandbox, 'openssl req -in jane.csr -noout -subject')).toBe('subject=CN = jane, O = dev\n');
	});

	it('submits the request pasted as a here-document, approves it, and reads the issued certificate', async () => {
		await paste('cat <<EOF | kubectl apply -f -\napiVersion: certificates.k8s.io/v1\nkind: CertificateSigningRequest\nmetadata:\n  name: jane\nspec:\n  request: $(cat jane.csr | base64 | tr -d "\\n")\n  signerName: kubernetes.io/kube-apiserver-client\n  expirationSeconds: 86400\n  usages:\n  - client auth\nEOF\n');
		await expect.poll(() => s.sandbox.locator('.ca-term__out').last().innerText(), { timeout: 20_000 }).toBe('certificatesigningrequest.certificates.k8s.io/jane created\n');
		expect(await run(s.sandbox, 'kubectl get csr')).toMatch(/^jane\s+\d+s\s+kubernetes\.io\/kube-apiserver-client\s+kubernetes-admin\s+24h\s+Pending$/m);
		expect(await run(s.sandbox, 'kubectl certificate approve jane')).toBe('certificatesigningrequest.certificates.k8s.io/jane approved\n');
		await expect.poll(() => run(s.sandbox, 'kubectl get csr jane --no-headers'), { timeout: 20_000 }).toMatch(/Approved,Issued\n$/);
		await run(s.sandbox, "kubectl get csr jane -o jsonpath='{.status.certificate}' | base64 -d > jane.crt");
		expect(await run(s.sandbox, 'openssl x509 -in jane.crt -noout -subject -issuer')).toBe('subject=CN = jane, O = dev\nissuer=CN = kubernetes\n');
	});

	it("gives jane her own kubeconfig user and context: refused until a RoleBinding, then in", async () => {
		expect(await run(s.sandbox, 'kubectl config set-credentials jane --client-key=jane.key --client-certificate=jane.crt --embed-certs=true')).toBe('User "jane" set.\n');
		expect(await run(s.sandbox, 'kubectl config set-context jane --cluster=kubernetes --user=jane')).toBe('Context "jane" created.\n');
		expect(await run(s.sandbox, 'kubectl --context jane auth whoami')).toBe('ATTRIBUTE   VALUE\nUsername    jane\nGroups      [dev system:authenticated]\n');
		expect(await run(s.sandbox, 'kubectl --context jane get deployments')).toBe('Error from server (Forbidden): deployments.apps is forbidden: User "jane" cannot list resource "deployments" in API group "apps" in the namespace "default"\n');
		await run(s.sandbox, 'kubectl create rolebinding jane-view --clusterrole=view --user=jane');
		expect(await run(s.sandbox, 'kubectl --context jane get deployments')).toMatch(/^NAME\s+READY\s+UP-TO-DATE\s+AVAILABLE\s+AGE\nweb\s+2\/2\s/);
	});

	it("counts the chapter's third task done", async () => {
		const note = s.sandbox.locator('.ca-term__entry--note').filter({ hasText: '✓ Task done: A certificate for jane' });
		await expect.poll(() => note.count(), { timeout: 20_000 }).toBe(1);
		await openTab(s.sandbox, /^Tasks/);
		expect(await s.sandbox.locator('[data-task="jane-certificate"] .ca-task__state').innerText()).toBe('Done');
	});

	it('logged no console error and no CSP violation', () => {
		expect(s.problems).toEqual([]);
	});
});
