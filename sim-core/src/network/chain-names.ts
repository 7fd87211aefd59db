/**
 * How kube-proxy names the per-Service and per-endpoint chains: a hash of
 * the service port's name, so a name is stable across syncs, restarts and
 * nodes (every node has the same KUBE-SVC-NPX46M4PTMTKRN6Y for the
 * `kubernetes` Service), short enough for iptables' 28-character limit,
 * and unreadable enough that kube-proxy adds a comment to every rule.
 *
 * - iptables: `KUBE-SVC-` + the first 16 characters of the standard base32
 *   encoding of sha256(servicePortName + protocol), e.g. sha256 of
 *   `default/kubernetes:https` + `tcp`; `KUBE-SEP-` hashes the endpoint
 *   (`10.244.1.5:80`) in too. KUBE-EXT-, KUBE-FW- and KUBE-SVL- share the
 *   service's hash.
 * - nftables: chain names may be long, so they read `service-<8 chars of
 *   the hash>-<namespace>/<name>/<protocol>/<port name>` and
 *   `endpoint-<hash>-<...>__<ip>/<port>`, the hash taken of the readable part.
 *
 * The ServicePortName string is pkg/proxy/types.go ServicePortName.String().
 *
 * Mirrors pkg/proxy/iptables/proxier.go (portProtoHash,
 * servicePortPolicyClusterChain, servicePortEndpointChainName),
 * pkg/proxy/nftables/proxier.go (hashAndTruncate, servicePortChainNameBase,
 * servicePortEndpointChainNameBase), pkg/proxy/types.go
 * (ServicePortName.String).
 */
import { sha256 } from '../golang/sha256.ts';
import { utf8Encode } from '../golang/utf8.ts';

/** RFC 4648 §6 alphabet (Go's base32.StdEncoding). */
const BASE32_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** Standard base32 with `=` padding, as encoding/base32 StdEncoding.EncodeToString. */
export function base32(bytes: readonly number[]): string {
	let out = '';
	let buffer = 0;
	let bits = 0;
	for (const byte of bytes) {
		buffer = ((buffer << 8) | (byte & 0xff)) & 0xffff;
		bits += 8;
		while (bits >= 5) {
			out += BASE32_ALPHABET[(buffer >>> (bits - 5)) & 31];
			bits -= 5;
		}
	}
	if (bits > 0) out += BASE32_ALPHABET[(buffer << (5 - bits)) & 31];
	// Output comes in 8-character blocks (40 bits), padded with '='.
	while (out.length % 8 !== 0) out += '=';
	return out;
}

function hash32(text: string): string {
	return base32(sha256(utf8Encode(text)));
}

/** ServicePortName.String(): `namespace/name`, plus `:port` when the port has a name. */
export function servicePortNameString(namespace: string, name: string, portName: string): string {
	return `${namespace}/${name}${portName ? `:${portName}` : ''}`;
}

/** portProtoHash: 16 characters of base32(sha256(servicePortName + protocol)). */
function portProtoHash(servicePortName: string, protocol: string): string {
	return hash32(servicePortName + protocol).slice(0, 16);
}

/** The iptables chains of one service port (KUBE-SVC-, KUBE-SVL-, KUBE-EXT-, KUBE-FW-). */
export function iptablesServiceChains(servicePortName: string, protocol: string): { cluster: string; local: string; external: string; firewall: string } {
	const hash = portProtoHash(servicePortName, protocol);
	return { cluster: `KUBE-SVC-${hash}`, local: `KUBE-SVL-${hash}`, external: `KUBE-EXT-${hash}`, firewall: `KUBE-FW-${hash}` };
}

/** servicePortEndpointChainName: `KUBE-SEP-` + 16 characters of base32(sha256(name + protocol + "ip:port")). */
export function iptablesEndpointChain(servicePortName: string, protocol: string, endpoint: string): string {
	return `KUBE-SEP-${hash32(servicePortName + protocol + endpoint).slice(0, 16)}`;
}

/** The prefixes that mark kube-proxy's own per-service chains (isServiceChainName). */
export const IPTABLES_SERVICE_CHAIN_PREFIXES = ['KUBE-SVC-', 'KUBE-SVL-', 'KUBE-SEP-', 'KUBE-FW-', 'KUBE-EXT-'] as const;

/** knftables.NameLengthMax (256) minus chainNamePrefixLengthMax (16): the longest chain name base. */
const NFT_CHAIN_NAME_BASE_MAX = 256 - 16;

/** hashAndTruncate: 8 characters of the name's own hash, a dash, the name; cut to 240 with `...`. */
function nftHashAndTruncate(name: string): string {
	let out = `${hash32(name).slice(0, 8)}-${name}`;
	if (out.length > NFT_CHAIN_NAME_BASE_MAX) out = `${out.slice(0, NFT_CHAIN_NAME_BASE_MAX - 3)}...`;
	return out;
}

/** servicePortChainNameBase: `HASH-namespace/name/protocol/portName`. */
export function nftServiceChainBase(namespace: string, name: string, protocol: string, portName: string): string {
	return nftHashAndTruncate(`${namespace}/${name}/${protocol}/${portName}`);
}

/** servicePortEndpointChainNameBase: `HASH-namespace/name/protocol/portName__ip/port` (IPv6 colons become dots). */
export function nftEndpointChainBase(namespace: string, name: string, protocol: string, portName: string, endpoint: string): string {
	const cut = endpoint.lastIndexOf(':');
	let ip = endpoint.slice(0, cut).replace(/^\[|\]$/g, '');
	const port = endpoint.slice(cut + 1);
	if (ip.includes(':')) ip = ip.replaceAll(':', '.');
	return nftHashAndTruncate(`${namespace}/${name}/${protocol}/${portName}__${ip}/${port}`);
}

/** The nftables chains of one service port (`service-`, `local-`, `external-`, `firewall-` + base). */
export function nftServiceChains(namespace: string, name: string, protocol: string, portName: string): { cluster: string; local: string; external: string; firewall: string } {
	const base = nftServiceChainBase(namespace, name, protocol, portName);
	return { cluster: `service-${base}`, local: `local-${base}`, external: `external-${base}`, firewall: `firewall-${base}` };
}

/** The nftables chain of one endpoint (`endpoint-` + base) and its affinity set (`affinity-` + base). */
export function nftEndpointChain(namespace: string, name: string, protocol: string, portName: string, endpoint: string): { chain: string; affinitySet: string } {
	const base = nftEndpointChainBase(namespace, name, protocol, portName, endpoint);
	return { chain: `endpoint-${base}`, affinitySet: `affinity-${base}` };
}
