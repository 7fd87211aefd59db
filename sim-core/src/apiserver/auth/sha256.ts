/**
 * SHA-256 and HMAC-SHA-256 moved to ../../util/sha256.ts, where kube-proxy
 * (network/) can use them too; this module keeps the API server's imports.
 */
export { hmacSha256, sha256, toHex } from '../../util/sha256.ts';
