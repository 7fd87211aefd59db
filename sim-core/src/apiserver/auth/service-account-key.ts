/**
 * The service account signing key: what `kubeadm init` writes to
 * /etc/kubernetes/pki/sa.key (the private half, kube-apiserver's
 * `--service-account-signing-key-file`) and sa.pub (the public half,
 * `--service-account-key-file`), and the signatures the API server puts on
 * the tokens it issues.
 *
 * NOT REAL RSA. Upstream signs with RS256 (RSASSA-PKCS1-v1_5 over SHA-256,
 * a 2048-bit key: 256-byte signatures). The simulation has no `crypto`
 * module and needs no security, only the same behaviour: a token the API
 * server signed verifies, a token anyone edited does not. So the
 * "signature" is HMAC-SHA-256 over `header.payload`, keyed by a per-cluster
 * secret drawn from the cluster seed, stretched to RS256's 256 bytes so
 * tokens are as long as real ones. Only the simulated API server can
 * verify it (it holds the secret); nothing outside could, which is also
 * true of this fake key.
 *
 * Mirrors pkg/serviceaccount/jwt.go (JWTTokenGenerator, the signer, and
 * keyIDFromPublicKey for the kid header).
 */
import { deriveRngState, Rng } from '../../sim/rng.ts';
import { utf8Encode } from '../../golang/utf8.ts';
import { base64UrlDecode, base64UrlEncode } from './jwt.ts';
import { hmacSha256, sha256 } from '../../golang/sha256.ts';

/** The key pair, as plain data (it is part of the cluster, like a file kubeadm wrote). */
export interface ServiceAccountKey {
	/** The secret bytes (stand-in for the RSA private key). */
	secret: number[];
	/** The `kid` header: base64url of SHA-256 over the public key, 43 characters as upstream's. */
	keyId: string;
}

/** Bytes of an RS256 signature: as long as the RSA modulus, and kubeadm's sa.key is 2048-bit (cmd/kubeadm/app/util/pkiutil rsaKeySize = 2048). */
const SIGNATURE_BYTES = 256;
/** Bytes of secret drawn for the key: as much entropy as an HMAC-SHA-256 key can use. */
const SECRET_BYTES = 32;

/**
 * The cluster's key, a pure function of the cluster seed: every restart of
 * the API server (and every restore of a snapshot) finds the same sa.key,
 * as on disk. Drawn from its own named stream so no component's random
 * numbers shift.
 */
export function serviceAccountKeyFromSeed(seed: number): ServiceAccountKey {
	const rng = new Rng(deriveRngState(seed, 'kubeadm/sa.key'));
	const secret = Array.from({ length: SECRET_BYTES }, () => rng.nextUint32() & 0xff);
	// The "public key" is derived from the secret, as an RSA public key is from the private one.
	const publicKey = hmacSha256(secret, utf8Encode('sa.pub'));
	return { secret, keyId: base64UrlEncode(sha256(publicKey)) };
}

/** The signature of `signingInput` (`base64url(header).base64url(payload)`), base64url: HMAC-SHA-256 in counter mode up to 256 bytes. */
export function signJws(key: ServiceAccountKey, signingInput: string): string {
	const message = utf8Encode(signingInput);
	const out: number[] = [];
	for (let block = 0; out.length < SIGNATURE_BYTES; block++) out.push(...hmacSha256(key.secret, [block, ...message]));
	return base64UrlEncode(out.slice(0, SIGNATURE_BYTES));
}

/** Whether `signature` is this key's signature of `signingInput` (compared in full, as a verifier must). */
export function verifyJws(key: ServiceAccountKey, signingInput: string, signature: string): boolean {
	const given = base64UrlDecode(signature);
	if (!given || given.length !== SIGNATURE_BYTES) return false;
	const expected = base64UrlDecode(signJws(key, signingInput))!;
	let difference = 0;
	for (let i = 0; i < SIGNATURE_BYTES; i++) difference |= given[i] ^ expected[i];
	return difference === 0;
}
