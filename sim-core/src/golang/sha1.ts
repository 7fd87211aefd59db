/**
 * SHA-1 (FIPS 180-4) over bytes. etcd
 * derives member and cluster IDs from SHA-1 digests
 * (server/etcdserver/api/membership/member.go computeMemberID,
 * cluster.go genID); the simulation has no `crypto`, so it computes them here.
 *
 * Mirrors golang/go src/crypto/sha1/sha1.go.
 */

const rotl = (x: number, n: number) => ((x << n) | (x >>> (32 - n))) >>> 0;

/** The 20-byte SHA-1 digest of `bytes`. */
export function sha1(bytes: readonly number[]): number[] {
	const message = [...bytes, 0x80];
	while (message.length % 64 !== 56) message.push(0);
	const bitLength = bytes.length * 8;
	// Length as a 64-bit big-endian integer (messages here are far below 2^32 bits).
	message.push(0, 0, 0, 0, (bitLength >>> 24) & 255, (bitLength >>> 16) & 255, (bitLength >>> 8) & 255, bitLength & 255);
	let [h0, h1, h2, h3, h4] = [0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476, 0xc3d2e1f0];
	const w = new Array<number>(80);
	for (let block = 0; block < message.length; block += 64) {
		for (let i = 0; i < 16; i++) {
			const j = block + i * 4;
			w[i] = ((message[j] << 24) | (message[j + 1] << 16) | (message[j + 2] << 8) | message[j + 3]) >>> 0;
		}
		for (let i = 16; i < 80; i++) w[i] = rotl(w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16], 1);
		let [a, b, c, d, e] = [h0, h1, h2, h3, h4];
		for (let i = 0; i < 80; i++) {
			let f: number;
			let k: number;
			if (i < 20) [f, k] = [(b & c) | (~b & d), 0x5a827999];
			else if (i < 40) [f, k] = [b ^ c ^ d, 0x6ed9eba1];
			else if (i < 60) [f, k] = [(b & c) | (b & d) | (c & d), 0x8f1bbcdc];
			else [f, k] = [b ^ c ^ d, 0xca62c1d6];
			const t = (rotl(a, 5) + (f >>> 0) + e + k + w[i]) >>> 0;
			[e, d, c, b, a] = [d, c, rotl(b, 30), a, t];
		}
		h0 = (h0 + a) >>> 0;
		h1 = (h1 + b) >>> 0;
		h2 = (h2 + c) >>> 0;
		h3 = (h3 + d) >>> 0;
		h4 = (h4 + e) >>> 0;
	}
	return [h0, h1, h2, h3, h4].flatMap((h) => [(h >>> 24) & 255, (h >>> 16) & 255, (h >>> 8) & 255, h & 255]);
}
