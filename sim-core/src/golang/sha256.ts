/**
 * SHA-256 (FIPS 180-4) and HMAC-SHA-256 (RFC 2104) over byte arrays. The
 * simulation has no `crypto` module, so whoever needs a digest computes it
 * here: the API server's service account token signer
 * (apiserver/auth/service-account-key.ts) and kube-proxy's chain names
 * (network/chain-names.ts, sha256 then base32, as pkg/proxy does). It lives
 * outside both components because components never import each other.
 * Messages are small (a JWT's header and payload, a service port name), so
 * plain number arrays are fast enough.
 *
 * Mirrors golang/go src/crypto/sha256/sha256.go, golang/go
 * src/crypto/hmac/hmac.go.
 */

/** The first 32 bits of the fractional parts of the cube roots of the first 64 primes (FIPS 180-4 §4.2.2). */
const K = [
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f,
	0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
	0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
	0xc67178f2,
];

/** The initial hash value (FIPS 180-4 §5.3.3). */
const H0 = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19];

/** SHA-256's block size in bytes, which HMAC pads its key to. */
const BLOCK_BYTES = 64;

const rotr = (x: number, n: number) => ((x >>> n) | (x << (32 - n))) >>> 0;

/** The 32-byte SHA-256 digest of `bytes`. */
export function sha256(bytes: readonly number[]): number[] {
	const message = [...bytes, 0x80];
	while (message.length % BLOCK_BYTES !== 56) message.push(0);
	// The bit length as a 64-bit big-endian integer; messages here stay far below 2^32 bits.
	const bitLength = bytes.length * 8;
	message.push(0, 0, 0, 0, (bitLength >>> 24) & 255, (bitLength >>> 16) & 255, (bitLength >>> 8) & 255, bitLength & 255);
	const h = [...H0];
	const w = new Array<number>(64);
	for (let block = 0; block < message.length; block += BLOCK_BYTES) {
		for (let i = 0; i < 16; i++) {
			const j = block + i * 4;
			w[i] = ((message[j] << 24) | (message[j + 1] << 16) | (message[j + 2] << 8) | message[j + 3]) >>> 0;
		}
		for (let i = 16; i < 64; i++) {
			const s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >>> 3);
			const s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >>> 10);
			w[i] = (w[i - 16] + s0 + w[i - 7] + s1) >>> 0;
		}
		let [a, b, c, d, e, f, g, hh] = h;
		for (let i = 0; i < 64; i++) {
			const S1 = rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25);
			const ch = (e & f) ^ (~e & g);
			const t1 = (hh + S1 + ch + K[i] + w[i]) >>> 0;
			const S0 = rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22);
			const maj = (a & b) ^ (a & c) ^ (b & c);
			const t2 = (S0 + maj) >>> 0;
			hh = g;
			g = f;
			f = e;
			e = (d + t1) >>> 0;
			d = c;
			c = b;
			b = a;
			a = (t1 + t2) >>> 0;
		}
		h[0] = (h[0] + a) >>> 0;
		h[1] = (h[1] + b) >>> 0;
		h[2] = (h[2] + c) >>> 0;
		h[3] = (h[3] + d) >>> 0;
		h[4] = (h[4] + e) >>> 0;
		h[5] = (h[5] + f) >>> 0;
		h[6] = (h[6] + g) >>> 0;
		h[7] = (h[7] + hh) >>> 0;
	}
	const out: number[] = [];
	for (const word of h) out.push((word >>> 24) & 255, (word >>> 16) & 255, (word >>> 8) & 255, word & 255);
	return out;
}

/** HMAC-SHA-256 (RFC 2104): H((K ^ opad) || H((K ^ ipad) || message)). */
export function hmacSha256(key: readonly number[], message: readonly number[]): number[] {
	const k = key.length > BLOCK_BYTES ? sha256(key) : [...key];
	while (k.length < BLOCK_BYTES) k.push(0);
	const inner = sha256([...k.map((b) => b ^ 0x36), ...message]);
	return sha256([...k.map((b) => b ^ 0x5c), ...inner]);
}

/** Lower-case hex of bytes. */
export function toHex(bytes: readonly number[]): string {
	return bytes.map((b) => b.toString(16).padStart(2, '0')).join('');
}
