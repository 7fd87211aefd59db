/**
 * kubernetes.io's task "Issue a Certificate for a Kubernetes API Client
 * Using A CertificateSigningRequest" (tasks/tls/certificate-issue-client-csr),
 * replayed through the public API with the page's commands: a key and a
 * request made with openssl, the CertificateSigningRequest applied from a
 * here-document, `kubectl certificate approve`, the certificate fetched,
 * a Role and RoleBinding, and a kubeconfig user and context for the new
 * user. Then what the page does not show but a cluster does: a denial, the
 * API server's refusals (a system:masters certificate, a lifetime under ten
 * minutes), a signer refusing the wrong usages, the certificate expiring,
 * and the cleaner removing the finished request an hour later.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { Cluster } from './cluster.ts';
import { daysFromCivil } from '../golang/time.ts';

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** `openssl x509 -dates`' notBefore and notAfter (`Dec  4 08:00:00 2026 GMT`), as epoch ms. */
function opensslDates(text: string): number[] {
	return [...text.matchAll(/=(\w{3}) +(\d+) (\d\d):(\d\d):(\d\d) (\d{4}) GMT/g)].map(([, mon, day, h, m, sec, year]) => (daysFromCivil(+year, MONTHS.indexOf(mon) + 1, +day) * 86_400 + +h * 3600 + +m * 60 + +sec) * 1000);
}

function run(cluster: Cluster, line: string) {
	const r = cluster.exec(line);
	expect(r.exitCode, `${line}: ${r.stderr}`).toBe(0);
	return r;
}

/** The page's manifest, with the reader's own request substituted the way the page says to. */
const csrManifest = (name: string, csrFile: string, extra = '  expirationSeconds: 86400  # one day\n  usages:\n  - client auth\n') =>
	`cat <<EOF | kubectl apply -f -\napiVersion: certificates.k8s.io/v1\nkind: CertificateSigningRequest\nmetadata:\n  name: ${name}\nspec:\n  request: $(cat ${csrFile} | base64 | tr -d "\\n")\n  signerName: kubernetes.io/kube-apiserver-client\n${extra}EOF`;

describe('Issue a certificate for a normal user, step by step', () => {
	const cluster = new Cluster({ seed: 7 });

	beforeAll(() => {
		cluster.settle({ maxMs: 120_000 });
	});

	it('creates a private key and a request for CN=myuser', () => {
		run(cluster, 'openssl genrsa -out myuser.key 3072');
		run(cluster, 'openssl req -new -key myuser.key -out myuser.csr -subj "/CN=myuser"');
		expect(run(cluster, 'head -1 myuser.csr').stdout).toBe('-----BEGIN CERTIFICATE REQUEST-----\n');
	});

	it('submits the request: Pending, with the requester the API server authenticated', () => {
		expect(run(cluster, csrManifest('myuser', 'myuser.csr')).stdout).toBe('certificatesigningrequest.certificates.k8s.io/myuser created\n');
		const table = run(cluster, 'kubectl get csr').stdout.split('\n');
		expect(table[0]).toMatch(/^NAME\s+AGE\s+SIGNERNAME\s+REQUESTOR\s+REQUESTEDDURATION\s+CONDITION$/);
		expect(table[1]).toMatch(/^myuser\s+\d+s\s+kubernetes\.io\/kube-apiserver-client\s+kubernetes-admin\s+24h\s+Pending$/);
		// spec.username and groups are the server's record of who asked, not what the manifest said.
		expect(run(cluster, "kubectl get csr myuser -o jsonpath='{.spec.username} {.spec.groups}'").stdout).toBe('kubernetes-admin ["kubeadm:cluster-admins","system:authenticated"]');
	});

	it('approves it; the signing controller issues the certificate', () => {
		expect(run(cluster, 'kubectl certificate approve myuser').stdout).toBe('certificatesigningrequest.certificates.k8s.io/myuser approved\n');
		cluster.settle({ maxMs: 10_000 });
		expect(run(cluster, 'kubectl get csr myuser').stdout).toMatch(/\sApproved,Issued\n$/);
		const approved = run(cluster, "kubectl get csr myuser -o jsonpath='{.status.conditions[0].type} {.status.conditions[0].reason}: {.status.conditions[0].message}'").stdout;
		expect(approved).toBe('Approved KubectlApprove: This CSR was approved by kubectl certificate approve.');
		// Approving again changes nothing and says the same; denying an approved request is refused.
		expect(run(cluster, 'kubectl certificate approve myuser').stdout).toBe('certificatesigningrequest.certificates.k8s.io/myuser approved\n');
		expect(cluster.exec('kubectl certificate deny myuser')).toMatchObject({ stderr: 'error: certificate signing request "myuser" is already Approved\n', exitCode: 1 });
	});

	it('exports the certificate: the subject of the request, issued by the cluster CA, for the day asked', () => {
		run(cluster, "kubectl get csr myuser -o jsonpath='{.status.certificate}'| base64 -d > myuser.crt");
		expect(run(cluster, 'openssl x509 -in myuser.crt -noout -subject -issuer').stdout).toBe('subject=CN = myuser\nissuer=CN = kubernetes\n');
		const dates = run(cluster, 'openssl x509 -in myuser.crt -noout -dates').stdout;
		const [notBefore, notAfter] = opensslDates(dates);
		// Backdated five minutes against clock skew; a long-lived certificate's end is backdated too.
		expect(notAfter - notBefore).toBe(86_400_000);
	});

	it('is refused everything until a Role grants it; then it works with its own kubeconfig user', () => {
		run(cluster, 'kubectl config set-credentials myuser --client-key=myuser.key --client-certificate=myuser.crt --embed-certs=true');
		expect(run(cluster, 'kubectl config set-context myuser --cluster=kubernetes --user=myuser').stdout).toBe('Context "myuser" created.\n');
		expect(cluster.exec('kubectl --context myuser get pods').stderr).toBe('Error from server (Forbidden): pods is forbidden: User "myuser" cannot list resource "pods" in API group "" in the namespace "default"\n');
		run(cluster, 'kubectl create role developer --verb=create --verb=get --verb=list --verb=update --verb=delete --resource=pods');
		expect(run(cluster, 'kubectl create rolebinding developer-binding-myuser --role=developer --user=myuser').stdout).toBe('rolebinding.rbac.authorization.k8s.io/developer-binding-myuser created\n');
		expect(run(cluster, 'kubectl config use-context myuser').stdout).toBe('Switched to context "myuser".\n');
		expect(run(cluster, 'kubectl auth whoami').stdout).toBe('ATTRIBUTE   VALUE\nUsername    myuser\nGroups      [system:authenticated]\n');
		expect(run(cluster, 'kubectl get pods').stderr).toBe('No resources found in default namespace.\n');
		expect(cluster.exec('kubectl get nodes').stderr).toBe('Error from server (Forbidden): nodes is forbidden: User "myuser" cannot list resource "nodes" in API group "" at the cluster scope\n');
		const contexts = run(cluster, 'kubectl config get-contexts').stdout;
		expect(contexts).toMatch(/^\s+kubernetes-admin@kubernetes\s+kubernetes\s+kubernetes-admin\s*$/m);
		expect(contexts).toMatch(/^\*\s+myuser\s+kubernetes\s+myuser\s*$/m);
		run(cluster, 'kubectl config use-context kubernetes-admin@kubernetes');
	});

	it('denies a request: no certificate is issued', () => {
		run(cluster, 'openssl genrsa -out jane.key 2048 2>/dev/null');
		run(cluster, 'openssl req -new -key jane.key -out jane.csr -subj "/CN=jane/O=dev"');
		run(cluster, csrManifest('jane', 'jane.csr'));
		expect(run(cluster, 'kubectl certificate deny jane').stdout).toBe('certificatesigningrequest.certificates.k8s.io/jane denied\n');
		cluster.settle({ maxMs: 10_000 });
		expect(run(cluster, 'kubectl get csr jane').stdout).toMatch(/\sDenied\n$/);
		expect(run(cluster, "kubectl get csr jane -o jsonpath='{.status.certificate}'").stdout).toBe('');
		expect(cluster.exec('kubectl certificate approve jane').stderr).toBe('error: certificate signing request "jane" is already Denied\n');
	});

	it("refuses what the API server must: system:masters through this signer, a lifetime under ten minutes, no usages", () => {
		run(cluster, 'openssl req -new -key jane.key -out root.csr -subj "/CN=mallory/O=system:masters"');
		expect(cluster.exec(csrManifest('mallory', 'root.csr'))).toMatchObject({
			stderr: 'Error from server (Forbidden): error when creating "STDIN": certificatesigningrequests.certificates.k8s.io "mallory" is forbidden: use of kubernetes.io/kube-apiserver-client signer with system:masters group is not allowed\n',
			exitCode: 1,
		});
		const short = cluster.exec(csrManifest('brief', 'jane.csr', '  expirationSeconds: 60\n  usages:\n  - client auth\n'));
		expect(short.stderr).toMatch(/is invalid: spec\.expirationSeconds: Invalid value: 60: may not specify a duration less than 600 seconds \(10 minutes\)\n$/);
		const none = cluster.exec(csrManifest('nousage', 'jane.csr', ''));
		expect(none.stderr).toMatch(/spec\.usages: Required value: usages must be provided\n$/);
		expect(cluster.exec('echo not a request > bad.csr; ' + csrManifest('bad', 'bad.csr')).stderr).toMatch(/spec\.request: Invalid value: "[A-Za-z0-9+/=]+": PEM block type must be CERTIFICATE REQUEST/);
	});

	it('accepts a request made with a real openssl elsewhere, reading its subject from the DER', () => {
		// `openssl req -new -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -subj "/CN=angela/O=dev"`, run on a real machine.
		const request = 'LS0tLS1CRUdJTiBDRVJUSUZJQ0FURSBSRVFVRVNULS0tLS0KTUlIYU1JR0JBZ0VBTUI4eER6QU5CZ05WQkFNTUJtRnVaMlZzWVRFTU1Bb0dBMVVFQ2d3RFpHVjJNRmt3RXdZSApLb1pJemowQ0FRWUlLb1pJemowREFRY0RRZ0FFRFhJLzhZWW5NUGhlUVNvMkh5YzJydHFQcEx0V0I2eHU0NHFNCkxGODgvWU5OL2VwMXB3bjJsWEV0R2tuVFM5S1hySS9qK3g3NXo0WWZkYjJOc0dCVkhLQUFNQW9HQ0NxR1NNNDkKQkFNQ0EwZ0FNRVVDSURsdE53TXJERGVBMWtwVytaK1hSQUtQVDk4RFpLbW5HdW9nRFNzRWNJcVdBaUVBamN0MAp6TjJBaWR6RGZwY1k5TTdPY2NvdXFpcVJBelR1M1VRZ3VNS01FRnM9Ci0tLS0tRU5EIENFUlRJRklDQVRFIFJFUVVFU1QtLS0tLQo=';
		run(cluster, `cat <<EOF | kubectl apply -f -\napiVersion: certificates.k8s.io/v1\nkind: CertificateSigningRequest\nmetadata:\n  name: angela\nspec:\n  request: ${request}\n  signerName: kubernetes.io/kube-apiserver-client\n  usages:\n  - client auth\nEOF`);
		expect(run(cluster, 'kubectl describe csr angela').stdout).toMatch(/^Subject:\n\s+Common Name:\s+angela\n\s+Serial Number:\s*\n\s+Organization:\s+dev\n/m);
		run(cluster, 'kubectl certificate approve angela');
		cluster.settle({ maxMs: 10_000 });
		expect(run(cluster, "kubectl get csr angela -o jsonpath='{.status.certificate}' | base64 -d | openssl x509 -noout -subject").stdout).toBe('subject=CN = angela, O = dev\n');
		run(cluster, 'kubectl delete csr angela');
	});

	it('marks a request Failed when its usages do not suit the signer', () => {
		run(cluster, csrManifest('server', 'jane.csr', '  usages:\n  - server auth\n'));
		run(cluster, 'kubectl certificate approve server');
		cluster.settle({ maxMs: 10_000 });
		expect(run(cluster, 'kubectl get csr server').stdout).toMatch(/\s<none>\s+Approved,Failed\n$/);
		expect(run(cluster, "kubectl get csr server -o jsonpath='{.status.conditions[1].reason}: {.status.conditions[1].message}'").stdout).toBe('SignerValidationFailure: invalid usage for client certificate: server auth');
	});

	it('stops authenticating a user whose certificate has expired', () => {
		run(cluster, csrManifest('brief', 'jane.csr', '  expirationSeconds: 600\n  usages:\n  - client auth\n'));
		run(cluster, 'kubectl certificate approve brief');
		cluster.settle({ maxMs: 10_000 });
		run(cluster, "kubectl get csr brief -o jsonpath='{.status.certificate}' | base64 -d > brief.crt");
		// A short-lived certificate ends exactly when asked: ten minutes after it was signed, not backdated.
		const [notBefore, notAfter] = opensslDates(run(cluster, 'openssl x509 -in brief.crt -noout -dates').stdout);
		expect(notAfter - notBefore).toBe(15 * 60_000);
		run(cluster, 'kubectl config set-credentials jane --client-key=jane.key --client-certificate=brief.crt --embed-certs=true');
		run(cluster, 'kubectl config set-context jane --cluster=kubernetes --user=jane');
		expect(run(cluster, 'kubectl --context jane auth whoami').stdout).toMatch(/^Username\s+jane$/m);
		run(cluster, 'sleep 601');
		expect(cluster.exec('kubectl --context jane get pods')).toMatchObject({ stderr: 'error: You must be logged in to the server (Unauthorized)\n', exitCode: 1 });
		expect(cluster.trace().some((e) => e.component === 'kube-apiserver' && /x509: certificate has expired or is not yet valid: current time .* is after /.test(e.msg))).toBe(true);
		// The admin's certificate still works.
		expect(run(cluster, 'kubectl get csr brief').stdout).toMatch(/\sApproved,Issued\n$/);
	});

	it('removes finished requests an hour after the decision, on its hourly pass (the CSR cleaner)', () => {
		// Nothing has gone yet: the cleaner looks once an hour, and no decision is an hour old yet.
		expect(run(cluster, 'kubectl get csr -o name').stdout).toBe('certificatesigningrequest.certificates.k8s.io/brief\ncertificatesigningrequest.certificates.k8s.io/jane\ncertificatesigningrequest.certificates.k8s.io/myuser\ncertificatesigningrequest.certificates.k8s.io/server\n');
		// The pass an hour after start finds the decisions 59 minutes old; the next one removes them.
		run(cluster, 'sleep 7200');
		expect(run(cluster, 'kubectl get csr')).toMatchObject({ stdout: '', stderr: 'No resources found\n' });
		// The certificate the reader fetched stays valid: the request is only the paperwork.
		expect(run(cluster, 'kubectl --context myuser get pods').stderr).toBe('No resources found in default namespace.\n');
	});
});
