/**
 * The commands a reader types besides kubectl, as shell command handlers
 * (shell/types.ts CommandHandler) that the cluster wiring registers:
 *
 *     shell.register('curl', createCurl(curlDeps));                  // every host
 *     controlPlane.commands.set('etcdctl', createEtcdctl(etcdDeps));  // where etcd's PKI lives
 *     controlPlane.commands.set('etcdutl', createEtcdutl());
 *     node.commands.set('ip', createIp(ipDeps));                      // each node
 *
 * Each takes a small deps object (see each folder's types): the state it
 * needs, the virtual clock and the host's seeded random stream.
 *
 * Mirrors nothing upstream: the entry point of the tools a reader types
 * besides kubectl.
 */
export { createEtcdctl } from './etcdctl/etcdctl.ts';
export { createEtcdutl } from './etcdctl/etcdutl.ts';
export { kubeadmEtcdMember } from './etcdctl/kubeadm.ts';
export { clusterId, memberId, DEFAULT_CLUSTER_TOKEN } from './etcdctl/ids.ts';
export { memberStatus, type MemberStatus } from './etcdctl/status.ts';
export { ETCD_VERSION, ETCD_STORAGE_VERSION, KUBEADM_ETCD_TLS, type EtcdMemberFacts, type EtcdTlsPolicy, type EtcdctlDeps } from './etcdctl/types.ts';
export { createCurl, CURL_VERSION, KUBEADM_CA_FILE } from './curl/curl.ts';
export { kubeadmApiServer } from './curl/kubeadm.ts';
export { ANONYMOUS, defaultAuthorizeNonResource, defaultCertIdentity } from './curl/identity.ts';
export { parseApiPath, type ParsedPath } from './curl/paths.ts';
export type { ApiServerEndpoint, CurlDeps, MetricFamily, ServerVersion } from './curl/types.ts';
export { createIp } from './ip/ip.ts';
export type { IpDeps } from './ip/network.ts';
