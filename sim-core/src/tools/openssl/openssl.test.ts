/**
 * `openssl` typed into a real shell session, as a reader follows
 * kubernetes.io's "Issue a Certificate for a Kubernetes API Client Using A
 * CertificateSigningRequest" and the "hard way" signing with a CA. The
 * expected texts are OpenSSL 3.0's (Debian 12, Ubuntu 24.04): names in the
 * `CN = myuser, O = dev` form, ASN1_TIME_print dates, the x509/req -text
 * layouts, and its complaints word for word (error-queue lines carry a
 * fixed thread id here). A fake kubectl stands for the cluster: it issues
 * the certificate from the request's subject as the CSR signer would.
 */
import { describe, expect, it } from 'vitest';
import { decodeBase64, encodeBase64 } from '../../golang/base64.ts';
import { parseRfc3339 } from '../../golang/time.ts';
import { MemoryFs } from '../../host/fs.ts';
import { certificatePem, parseCertificate, parseCertificateRequest } from '../../host/pem.ts';
import { ShellSession } from '../../shell/session.ts';
import type { CommandHandler, Host } from '../../shell/types.ts';
import { openssl } from './openssl.ts';

const NOW = parseRfc3339('2026-12-04T08:00:00Z');
const DAY_MS = 86_400_000;
const THREAD = '40D7A2E1C27F0000';

/** A fake kubectl: `apply -f csr.yaml` keeps the request, `certificate approve` issues it for a day, `get csr NAME -o jsonpath=...` prints it. */
function fakeKubectl(): CommandHandler {
	let request: string | undefined;
	let issued: string | undefined;
	return ({ argv, host }) => {
		const line = argv.slice(1).join(' ');
		if (line.startsWith('apply -f ')) {
			const yaml = host.fs.readFile(argv[3]);
			request = decodeBase64(/request: (\S+)/.exec(yaml)![1]);
			return { stdout: 'certificatesigningrequest.certificates.k8s.io/myuser created\n', stderr: '', exitCode: 0 };
		}
		if (line === 'certificate approve myuser') {
			const subject = parseCertificateRequest(request ?? '');
			if (!subject) return { stdout: '', stderr: 'error: malformed request\n', exitCode: 1 };
			issued = certificatePem({ subject, issuer: { commonName: 'kubernetes', organizations: [] }, notBefore: NOW, notAfter: NOW + DAY_MS });
			return { stdout: 'certificatesigningrequest.certificates.k8s.io/myuser approved\n', stderr: '', exitCode: 0 };
		}
		if (line === 'get csr myuser -o jsonpath={.status.certificate}') return { stdout: issued ? encodeBase64(issued) : '', stderr: '', exitCode: 0 };
		return { stdout: '', stderr: `unexpected kubectl ${line}\n`, exitCode: 1 };
	};
}

function session(): ShellSession {
	const ws: Host = { name: 'workstation', kind: 'workstation', user: 'user', home: '/home/user', fs: new MemoryFs(), commands: new Map() };
	const s = new ShellSession([ws]);
	s.register('openssl', (ctx) => openssl(ctx, NOW));
	s.register('kubectl', fakeKubectl());
	return s;
}

const run = (s: ShellSession, line: string) => {
	const { stdout, stderr, exitCode } = s.exec(line);
	return { stdout, stderr, exitCode };
};
const quiet = (stdout = '') => ({ stdout, stderr: '', exitCode: 0 });
const file = (s: ShellSession, path: string) => s.host.fs.readFile(path);

/** The reader's steps up to the certificate file, in a fresh session. */
function issueMyuser(): ShellSession {
	const s = session();
	run(s, 'openssl genrsa -out myuser.key 2048');
	run(s, 'openssl req -new -key myuser.key -out myuser.csr -subj "/CN=myuser"');
	run(s, 'cat <<EOF > csr.yaml\napiVersion: certificates.k8s.io/v1\nkind: CertificateSigningRequest\nmetadata:\n  name: myuser\nspec:\n  request: $(cat myuser.csr | base64 | tr -d "\\n")\n  signerName: kubernetes.io/kube-apiserver-client\n  expirationSeconds: 86400\n  usages:\n  - client auth\nEOF');
	run(s, 'kubectl apply -f csr.yaml');
	run(s, 'kubectl certificate approve myuser');
	run(s, "kubectl get csr myuser -o jsonpath='{.status.certificate}'| base64 -d > myuser.crt");
	return s;
}

const MYUSER_TEXT = (serial: string) =>
	'Certificate:\n' +
	'    Data:\n' +
	'        Version: 3 (0x2)\n' +
	'        Serial Number:\n' +
	`            ${serial}\n` +
	'        Signature Algorithm: sha256WithRSAEncryption\n' +
	'        Issuer: CN = kubernetes\n' +
	'        Validity\n' +
	'            Not Before: Dec  4 08:00:00 2026 GMT\n' +
	'            Not After : Dec  5 08:00:00 2026 GMT\n' +
	'        Subject: CN = myuser\n' +
	"        Subject Public Key Info: (simulated: this cluster's PEM files hold no key material)\n" +
	'    Signature Algorithm: sha256WithRSAEncryption\n' +
	'    Signature Value: (simulated: no signature)\n';

describe('kubernetes.io: issue a certificate for a user with a CertificateSigningRequest', () => {
	it('genrsa writes a PKCS #8 key and prints nothing, as OpenSSL 3.0 does without -verbose', () => {
		const s = session();
		expect(run(s, 'openssl genrsa -out myuser.key 2048')).toEqual(quiet());
		expect(file(s, 'myuser.key')).toMatch(/^-----BEGIN PRIVATE KEY-----\n[\s\S]*-----END PRIVATE KEY-----\n$/);
	});

	it('req -new -subj writes a request whose subject the cluster reads', () => {
		const s = session();
		run(s, 'openssl genrsa -out myuser.key 2048');
		expect(run(s, 'openssl req -new -key myuser.key -out myuser.csr -subj "/CN=myuser"')).toEqual(quiet());
		expect(file(s, 'myuser.csr')).toMatch(/^-----BEGIN CERTIFICATE REQUEST-----\n/);
		expect(parseCertificateRequest(file(s, 'myuser.csr'))).toEqual({ commonName: 'myuser', organizations: [] });
		expect(run(s, 'openssl req -in myuser.csr -noout -subject')).toEqual(quiet('subject=CN = myuser\n'));
	});

	it('the request survives `base64 | tr -d "\\n"` and base64 -d', () => {
		const s = session();
		run(s, 'openssl genrsa -out myuser.key 2048');
		run(s, 'openssl req -new -key myuser.key -out myuser.csr -subj "/CN=myuser"');
		const line = run(s, 'cat myuser.csr | base64 | tr -d "\\n"').stdout;
		expect(line).not.toContain('\n');
		expect(run(s, `echo ${line} | base64 -d`).stdout).toBe(file(s, 'myuser.csr'));
		expect(run(s, `echo ${line} | base64 -d | openssl req -noout -subject`)).toEqual(quiet('subject=CN = myuser\n'));
	});

	it('x509 prints the issued certificate: -subject, -issuer, -dates, -enddate, -text', () => {
		const s = issueMyuser();
		expect(run(s, 'openssl x509 -in myuser.crt -noout -subject')).toEqual(quiet('subject=CN = myuser\n'));
		expect(run(s, 'openssl x509 -in myuser.crt -noout -issuer')).toEqual(quiet('issuer=CN = kubernetes\n'));
		expect(run(s, 'openssl x509 -in myuser.crt -noout -dates')).toEqual(quiet('notBefore=Dec  4 08:00:00 2026 GMT\nnotAfter=Dec  5 08:00:00 2026 GMT\n'));
		expect(run(s, 'openssl x509 -in myuser.crt -noout -enddate')).toEqual(quiet('notAfter=Dec  5 08:00:00 2026 GMT\n'));
		const text = run(s, 'openssl x509 -in myuser.crt -noout -text');
		const serial = /Serial Number:\n {12}(\S+)\n/.exec(text.stdout)?.[1] ?? '';
		expect(serial).toMatch(/^[0-7][0-9a-f](:[0-9a-f]{2}){19}$/);
		expect(text).toEqual(quiet(MYUSER_TEXT(serial)));
	});

	it('prints fields in command-line order, then the certificate unless -noout, and reads stdin without -in', () => {
		const s = issueMyuser();
		const crt = file(s, 'myuser.crt');
		expect(run(s, 'openssl x509 -in myuser.crt -issuer -subject')).toEqual(quiet(`issuer=CN = kubernetes\nsubject=CN = myuser\n${crt}`));
		expect(run(s, 'cat myuser.crt | openssl x509 -noout -subject -startdate')).toEqual(quiet('subject=CN = myuser\nnotBefore=Dec  4 08:00:00 2026 GMT\n'));
		expect(run(s, "kubectl get csr myuser -o jsonpath='{.status.certificate}' | base64 -d | openssl x509 -noout -subject")).toEqual(quiet('subject=CN = myuser\n'));
	});

	it('-checkend says whether the one-day certificate outlives the next hour and the next two days', () => {
		const s = issueMyuser();
		expect(run(s, 'openssl x509 -in myuser.crt -checkend 3600')).toEqual(quiet('Certificate will not expire\n'));
		expect(run(s, 'openssl x509 -in myuser.crt -checkend 172800')).toEqual({ stdout: 'Certificate will expire\n', stderr: '', exitCode: 1 });
	});

	it('is deterministic: the same steps give the same files and output', () => {
		const a = issueMyuser();
		const b = issueMyuser();
		for (const path of ['myuser.key', 'myuser.csr', 'myuser.crt']) expect(file(a, path)).toBe(file(b, path));
		expect(run(a, 'openssl x509 -in myuser.crt -noout -text')).toEqual(run(b, 'openssl x509 -in myuser.crt -noout -text'));
	});
});

describe('subjects', () => {
	it('keeps every O as a group, and prints the request with req -text', () => {
		const s = session();
		run(s, 'openssl genrsa -out jane.key 2048');
		expect(run(s, 'openssl req -new -key jane.key -out jane.csr -subj "/CN=jane/O=dev/O=ops"')).toEqual(quiet());
		expect(parseCertificateRequest(file(s, 'jane.csr'))).toMatchObject({ commonName: 'jane', organizations: ['dev', 'ops'] });
		expect(run(s, 'openssl req -in jane.csr -noout -text')).toEqual(
			quiet(
				'Certificate Request:\n' +
					'    Data:\n' +
					'        Version: 1 (0x0)\n' +
					'        Subject: CN = jane, O = dev, O = ops\n' +
					"        Subject Public Key Info: (simulated: this cluster's PEM files hold no key material)\n" +
					'        Attributes:\n' +
					'            (none)\n' +
					'            Requested Extensions:\n' +
					'    Signature Algorithm: sha256WithRSAEncryption\n' +
					'    Signature Value: (simulated: no signature)\n',
			),
		);
	});

	it.each([
		['/C=US/O=dev/CN=x', 'subject=C = US, O = dev, CN = x\n', ''],
		['/O=Acme, Inc/CN=x', 'subject=O = "Acme, Inc", CN = x\n', ''],
		['/commonName=x/', 'subject=CN = x\n', ''],
		['/CN=x/XX=y', 'subject=CN = x\n', 'req: Skipping unknown subject name attribute "XX"\n'],
		['/CN=x/OU=', 'subject=CN = x\n', 'req: No value provided for subject name attribute "OU", skipped\n'],
	])('-subj %s', (subj, subject, warnings) => {
		const s = session();
		run(s, 'openssl genrsa -out k.key');
		expect(run(s, `openssl req -new -key k.key -subj '${subj}' -noout -subject`)).toEqual({ stdout: subject, stderr: warnings, exitCode: 0 });
	});

	it('accepts a subject without CN, as openssl does; the cluster then finds no user in it', () => {
		const s = session();
		run(s, 'openssl genrsa -out k.key');
		expect(run(s, 'openssl req -new -key k.key -out k.csr -subj "/O=dev"')).toEqual(quiet());
		expect(run(s, 'openssl req -in k.csr -noout -subject')).toEqual(quiet('subject=O = dev\n'));
		expect(parseCertificateRequest(file(s, 'k.csr'))).toBeUndefined();
	});
});

describe('signing with a CA by hand (x509 -req)', () => {
	function withCa(): ShellSession {
		const s = session();
		run(s, 'openssl genrsa -out ca.key 2048');
		run(s, 'openssl req -x509 -new -nodes -key ca.key -subj "/CN=KUBERNETES-CA" -days 1000 -out ca.crt');
		run(s, 'openssl genrsa -out admin.key 2048');
		run(s, 'openssl req -new -key admin.key -subj "/CN=admin/O=system:masters" -out admin.csr');
		return s;
	}

	it('req -x509 makes a self-signed CA certificate', () => {
		const s = withCa();
		expect(run(s, 'openssl x509 -in ca.crt -noout -subject -issuer -dates')).toEqual(
			quiet('subject=CN = KUBERNETES-CA\nissuer=CN = KUBERNETES-CA\nnotBefore=Dec  4 08:00:00 2026 GMT\nnotAfter=Aug 30 08:00:00 2029 GMT\n'),
		);
	});

	it('reports on stderr, writes the certificate and the serial file, and the cluster reads the subject', () => {
		const s = withCa();
		expect(run(s, 'openssl x509 -req -in admin.csr -CA ca.crt -CAkey ca.key -CAcreateserial -out admin.crt -days 1000')).toEqual({
			stdout: '',
			stderr: 'Certificate request self-signature ok\nsubject=CN = admin, O = system:masters\n',
			exitCode: 0,
		});
		expect(run(s, 'openssl x509 -in admin.crt -noout -issuer -subject -enddate')).toEqual(
			quiet('issuer=CN = KUBERNETES-CA\nsubject=CN = admin, O = system:masters\nnotAfter=Aug 30 08:00:00 2029 GMT\n'),
		);
		const srl = file(s, 'ca.srl');
		expect(srl).toMatch(/^[0-7][0-9A-F]{39}\n$/);
		expect(run(s, 'openssl x509 -in admin.crt -noout -serial').stdout).toBe(`serial=${srl}`);
		expect(parseCertificate(file(s, 'admin.crt'))).toMatchObject({ subject: { commonName: 'admin', organizations: ['system:masters'] }, notBefore: NOW, notAfter: NOW + 1000 * DAY_MS });
	});

	it('takes the next serial from an existing .srl file', () => {
		const s = withCa();
		s.host.fs.writeFile('ca.srl', '01FF\n');
		run(s, 'openssl x509 -req -in admin.csr -CA ca.crt -CAkey ca.key -out admin.crt');
		expect(file(s, 'ca.srl')).toBe('0200\n');
		expect(run(s, 'openssl x509 -in admin.crt -noout -serial')).toEqual(quiet('serial=0200\n'));
		expect(run(s, 'openssl x509 -in admin.crt -noout -text').stdout).toContain('        Serial Number: 512 (0x200)\n');
	});

	it('without -CAcreateserial and no .srl file, uses a fresh serial and writes no file', () => {
		const s = withCa();
		expect(run(s, 'openssl x509 -req -in admin.csr -CA ca.crt -CAkey ca.key -out admin.crt').exitCode).toBe(0);
		expect(s.host.fs.exists('ca.srl')).toBe(false);
	});

	it('writes the certificate to stdout after the report when there is no -out', () => {
		const s = withCa();
		const r = s.exec('openssl x509 -req -in admin.csr -CA ca.crt -CAkey ca.key');
		expect(r.stdout).toMatch(/^-----BEGIN CERTIFICATE-----\n/);
		expect(r.output.startsWith('Certificate request self-signature ok\n')).toBe(true);
	});

	it('self-signs with -signkey', () => {
		const s = withCa();
		run(s, 'openssl x509 -req -in admin.csr -signkey admin.key -out self.crt');
		expect(run(s, 'openssl x509 -in self.crt -noout -issuer')).toEqual(quiet('issuer=CN = admin, O = system:masters\n'));
	});

	it('says what is missing: the CA certificate, the CA key, a signing key', () => {
		const s = withCa();
		expect(run(s, 'openssl x509 -req -in admin.csr -CA nope.crt -CAkey ca.key -out a.crt').stderr).toBe(
			'Certificate request self-signature ok\nsubject=CN = admin, O = system:masters\n' +
				'Could not open file or uri for loading CA certificate from nope.crt\n' +
				`${THREAD}:error:16000069:STORE routines:ossl_store_get0_loader_int:unregistered scheme:../crypto/store/store_register.c:237:scheme=file\n` +
				`${THREAD}:error:80000002:system library:file_open:No such file or directory:../providers/implementations/storemgmt/file_store.c:267:calling stat(nope.crt)\n` +
				'Unable to load CA certificate\n',
		);
		expect(run(s, 'openssl x509 -req -in admin.csr -CA ca.crt -out a.crt')).toMatchObject({ stderr: expect.stringContaining('Could not read CA private key from ca.crt\n'), exitCode: 1 });
		expect(run(s, 'openssl x509 -req -in admin.csr -out a.crt').stderr).toContain('We need a private key to sign with');
		expect(run(s, 'openssl x509 -req -in nope.csr -CA ca.crt -CAkey ca.key')).toEqual({
			stdout: '',
			stderr:
				`Can't open "nope.csr" for reading, No such file or directory\n` +
				`${THREAD}:error:80000002:system library:BIO_new_file:No such file or directory:../crypto/bio/bss_file.c:67:calling fopen(nope.csr, r)\n` +
				`${THREAD}:error:10000080:BIO routines:BIO_new_file:no such file:../crypto/bio/bss_file.c:75:\n` +
				'Unable to load certificate request input\n',
			exitCode: 1,
		});
	});
});

describe('what openssl says when something is wrong', () => {
	it('a missing key file', () => {
		const s = session();
		expect(run(s, 'openssl req -new -key myuser.key -out myuser.csr -subj "/CN=myuser"')).toEqual({
			stdout: '',
			stderr:
				'Could not open file or uri for loading private key from myuser.key\n' +
				`${THREAD}:error:16000069:STORE routines:ossl_store_get0_loader_int:unregistered scheme:../crypto/store/store_register.c:237:scheme=file\n` +
				`${THREAD}:error:80000002:system library:file_open:No such file or directory:../providers/implementations/storemgmt/file_store.c:267:calling stat(myuser.key)\n`,
			exitCode: 1,
		});
		expect(s.host.fs.exists('myuser.csr')).toBe(false);
	});

	it('a key file that holds no key', () => {
		const s = session();
		s.host.fs.writeFile('myuser.key', 'hello\n');
		expect(run(s, 'openssl req -new -key myuser.key -subj "/CN=myuser"')).toEqual({ stdout: '', stderr: 'Could not read private key from myuser.key\n', exitCode: 1 });
	});

	it('no -subj: the sandbox cannot prompt for the name, and says so', () => {
		const s = session();
		run(s, 'openssl genrsa -out myuser.key 2048');
		const r = run(s, 'openssl req -new -key myuser.key -out myuser.csr');
		expect(r).toMatchObject({ stdout: '', exitCode: 1 });
		expect(r.stderr).toContain('cannot prompt for the Distinguished Name: give it with -subj');
		expect(s.host.fs.exists('myuser.csr')).toBe(false);
	});

	it('a -subj not in the /type=value form', () => {
		const s = session();
		run(s, 'openssl genrsa -out k.key');
		expect(run(s, 'openssl req -new -key k.key -subj "CN=myuser"').stderr).toBe(
			"req: subject name is expected to be in the format /type0=value0/type1=value1/type2=... where characters may be escaped by \\. This name is not in that format: 'CN=myuser'\n",
		);
	});

	it('a request given to x509, a missing certificate, an empty one', () => {
		const s = session();
		run(s, 'openssl genrsa -out myuser.key 2048');
		run(s, 'openssl req -new -key myuser.key -out myuser.csr -subj "/CN=myuser"');
		expect(run(s, 'openssl x509 -in myuser.csr -noout -text')).toEqual({ stdout: '', stderr: 'Could not read certificate from myuser.csr\nUnable to load certificate\n', exitCode: 1 });
		expect(run(s, 'openssl x509 -in myuser.crt -noout -text')).toEqual({
			stdout: '',
			stderr:
				'Could not open file or uri for loading certificate from myuser.crt\n' +
				`${THREAD}:error:16000069:STORE routines:ossl_store_get0_loader_int:unregistered scheme:../crypto/store/store_register.c:237:scheme=file\n` +
				`${THREAD}:error:80000002:system library:file_open:No such file or directory:../providers/implementations/storemgmt/file_store.c:267:calling stat(myuser.crt)\n` +
				'Unable to load certificate\n',
			exitCode: 1,
		});
		expect(run(s, 'echo -n | openssl x509 -noout -subject')).toEqual({ stdout: '', stderr: 'Could not read certificate from <stdin>\nUnable to load certificate\n', exitCode: 1 });
		expect(run(s, 'openssl req -in myuser.key -noout -subject')).toEqual({
			stdout: '',
			stderr: `Unable to load X509 request\n${THREAD}:error:0480006C:PEM routines:get_name:no start line:../crypto/pem/pem_lib.c:763:Expecting: CERTIFICATE REQUEST\n`,
			exitCode: 1,
		});
	});

	it.each([
		['openssl foo', "Invalid command 'foo'; type \"help\" for a list.\n"],
		['openssl req -foo', 'req: Unknown option or message digest: foo\nreq: Use -help for summary.\n'],
		['openssl x509 --bogus -in a.crt', 'x509: Unknown option or message digest: bogus\nx509: Use -help for summary.\n'],
		['openssl genrsa -bogus', 'genrsa: Unknown cipher: bogus\n'],
		['openssl req -new -key', 'req: Option -key needs a value\nreq: Use -help for summary.\n'],
		['openssl genrsa -out k.key lots', 'genrsa: Can\'t parse "lots" as a number\ngenrsa: Use -help for summary.\n'],
		['openssl genpkey -algorithm FOO', 'Error initializing FOO context\n'],
		['openssl genpkey -algorithm RSA -pkeyopt bad:1', 'Error setting bad:1 parameter\n'],
		['openssl x509 -in a.crt -days x -req', 'x509: Can\'t parse "x" as a number\nx509: Use -help for summary.\n'],
	])('%s', (line, stderr) => {
		expect(run(session(), line)).toEqual({ stdout: '', stderr, exitCode: 1 });
	});

	it('a -out in a directory that does not exist', () => {
		expect(run(session(), 'openssl genrsa -out nodir/k.key')).toEqual({
			stdout: '',
			stderr: `Can't open "nodir/k.key" for writing, No such file or directory\n${THREAD}:error:80000002:system library:BIO_new_file:No such file or directory:../crypto/bio/bss_file.c:67:calling fopen(nodir/k.key, w)\n`,
			exitCode: 1,
		});
	});

	it('a cipher without -passout: no pass phrase can be typed here', () => {
		const r = run(session(), 'openssl genrsa -aes256 -out k.key 2048');
		expect(r).toMatchObject({ exitCode: 1, stderr: expect.stringContaining('cannot prompt for a pass phrase') });
	});
});

describe('other commands', () => {
	it('version prints Debian 12\'s OpenSSL 3.0 line', () => {
		expect(run(session(), 'openssl version')).toEqual(quiet('OpenSSL 3.0.15 3 Sep 2024 (Library: OpenSSL 3.0.15 3 Sep 2024)\n'));
		expect(run(session(), 'openssl version -d')).toEqual(quiet('OPENSSLDIR: "/usr/lib/ssl"\n'));
	});

	it('genpkey writes a key to stdout without -out', () => {
		expect(run(session(), 'openssl genpkey -algorithm ec -pkeyopt ec_paramgen_curve:P-256').stdout).toMatch(/^-----BEGIN PRIVATE KEY-----\n/);
	});

	it('req -newkey -noenc writes both the key and the request, with the progress openssl prints', () => {
		const s = session();
		const r = run(s, 'openssl req -newkey rsa:2048 -noenc -keyout k.key -out k.csr -subj "/CN=x"');
		expect(r).toMatchObject({ stdout: '', exitCode: 0 });
		expect(r.stderr).toMatch(/^[.+*]+\n-----\n$/);
		expect(file(s, 'k.key')).toMatch(/^-----BEGIN PRIVATE KEY-----/);
		expect(parseCertificateRequest(file(s, 'k.csr'))?.commonName).toBe('x');
	});

	it('a kubeadm placeholder certificate (no issuer, no dates) is shown with those fields missing and a stable serial', () => {
		const s = session();
		s.host.fs.writeFile('apiserver.crt', certificatePem({ subject: { commonName: 'kube-apiserver', organizations: [] } }));
		expect(run(s, 'openssl x509 -in apiserver.crt -noout -issuer -dates')).toEqual(
			quiet('issuer=(not recorded in this simulated certificate)\nnotBefore=(not recorded in this simulated certificate)\nnotAfter=(not recorded in this simulated certificate)\n'),
		);
		expect(run(s, 'openssl x509 -in apiserver.crt -noout -serial')).toEqual(run(s, 'openssl x509 -in apiserver.crt -noout -serial'));
	});
});
