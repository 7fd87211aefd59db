/**
 * What `openssl x509` and `openssl req` print about a placeholder: the
 * `-text` layouts of X509_print and X509_REQ_print in OpenSSL 3.0, and the
 * one-line fields (`subject=`, `issuer=`, `notBefore=`, `serial=`). The
 * placeholders hold no key and no signature, so those lines say so instead
 * of printing a modulus; fields a placeholder does not record (kubeadm's
 * files carry no issuer or validity) are said to be missing rather than
 * invented.
 *
 * Mirrors openssl/openssl crypto/x509/t_x509.c (X509_print_ex),
 * crypto/x509/t_req.c (X509_REQ_print_ex), apps/x509.c (the print options).
 */
import type { NameAttribute } from '../../host/pem.ts';
import { asn1Time, onelineName, serialLines } from './names.ts';

/** A certificate as openssl shows it. */
export interface CertificateView {
	subject: readonly NameAttribute[];
	issuer?: readonly NameAttribute[];
	notBefore?: number;
	notAfter?: number;
	/** Upper-case hex. */
	serial: string;
}

const NOT_RECORDED = '(not recorded in this simulated certificate)';
const NO_KEY = '(simulated: this cluster\'s PEM files hold no key material)';
const NO_SIGNATURE = '(simulated: no signature)';
const SIGNATURE_ALGORITHM = 'sha256WithRSAEncryption';

const name = (attributes: readonly NameAttribute[] | undefined) => (attributes ? onelineName(attributes) : NOT_RECORDED);
const time = (ms: number | undefined) => (ms === undefined ? NOT_RECORDED : asn1Time(ms));

/** X509_print: the layout of `openssl x509 -text`, without a key or extensions. */
export function certificateText(cert: CertificateView): string {
	return (
		'Certificate:\n' +
		'    Data:\n' +
		'        Version: 3 (0x2)\n' +
		serialLines(cert.serial) +
		`        Signature Algorithm: ${SIGNATURE_ALGORITHM}\n` +
		`        Issuer: ${name(cert.issuer)}\n` +
		'        Validity\n' +
		`            Not Before: ${time(cert.notBefore)}\n` +
		`            Not After : ${time(cert.notAfter)}\n` +
		`        Subject: ${name(cert.subject)}\n` +
		`        Subject Public Key Info: ${NO_KEY}\n` +
		`    Signature Algorithm: ${SIGNATURE_ALGORITHM}\n` +
		`    Signature Value: ${NO_SIGNATURE}\n`
	);
}

/** X509_REQ_print: the layout of `openssl req -text`; OpenSSL 3.0 prints `Requested Extensions:` even for a request with none. */
export function requestText(subject: readonly NameAttribute[]): string {
	return (
		'Certificate Request:\n' +
		'    Data:\n' +
		'        Version: 1 (0x0)\n' +
		`        Subject: ${onelineName(subject)}\n` +
		`        Subject Public Key Info: ${NO_KEY}\n` +
		'        Attributes:\n' +
		'            (none)\n' +
		'            Requested Extensions:\n' +
		`    Signature Algorithm: ${SIGNATURE_ALGORITHM}\n` +
		`    Signature Value: ${NO_SIGNATURE}\n`
	);
}

/** One of x509's one-line print options (`-subject`, `-dates`...), as apps/x509.c prints it. */
export function certificateField(option: string, cert: CertificateView): string {
	switch (option) {
		case 'subject':
			return `subject=${name(cert.subject)}\n`;
		case 'issuer':
			return `issuer=${name(cert.issuer)}\n`;
		case 'startdate':
			return `notBefore=${time(cert.notBefore)}\n`;
		case 'enddate':
			return `notAfter=${time(cert.notAfter)}\n`;
		case 'dates':
			return `notBefore=${time(cert.notBefore)}\nnotAfter=${time(cert.notAfter)}\n`;
		case 'serial':
			return `serial=${cert.serial}\n`;
		case 'text':
			return certificateText(cert);
		default:
			return '';
	}
}
