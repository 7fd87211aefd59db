/**
 * The network tools of Pods and nodes (wget, nc, ping, nslookup, dig,
 * host), each a function of the machine's network (./types.ts NetDeps).
 *
 * Mirrors nothing upstream: the entry point of the simulator's network
 * tools.
 */
export { runClientTool } from './clients.ts';
export { runDnsTool } from './dns-tools.ts';
export { parseResolvConf, resolveAddress, searchCandidates } from './resolver.ts';
export type { DnsAnswer, DnsExchange, DnsQuery, EchoResult, NetDeps, ToolDialects, ToolResult } from './types.ts';
