/**
 * The packet-filter tools of a node: `iptables`, `iptables-save`, `ipvsadm`
 * and `nft`, reading the rules kube-proxy (and the kubelet) left in the
 * node's kernel (host/netfilter/dataplane.ts). The cluster wiring registers
 * them on every node's shell, where the reader is root.
 *
 * Mirrors nothing upstream: the entry point of the packet-filter tools.
 */
export { createIptables, createIptablesSave, ctime, saveTable } from './iptables.ts';
export { createIpvsadm, listIpvs } from './ipvsadm.ts';
export { createNft, tableText } from './nft.ts';
export { listHeader, listRule, saveRule, statisticProbability } from '../../host/netfilter/iptables-format.ts';
export { IPTABLES_VERSION, IPVS_VERSION_LINE, NFT_VERSION, type NetfilterDeps } from './types.ts';
