/**
 * etcdctl v3.6's command tree: every command's `Use`, `Short`, `Long`,
 * `Example` and local flags, as the cobra definitions in
 * etcdctl/ctlv3/command/*.go declare them, and the help text cobrautl's
 * usage template renders from them (pkg/cobrautl/help.go). The commands the
 * simulation runs have a `run` name; the others are listed (so
 * `etcdctl --help` reads as the real one) and report that they are not
 * simulated.
 *
 * Mirrors etcd-io/etcd etcdctl/ctlv3/command/ (each command's cobra
 * definition), etcd-io/etcd pkg/cobrautl/help.go (the usage template).
 */
import { tabwriteWithTabs } from '../common/tabwriter.ts';
import { GLOBAL_FLAGS, flagUsages, type FlagSpec } from './flags.ts';
import { ETCD_API_VERSION, ETCD_VERSION } from './types.ts';

/** The simulated command implementations, by name (see run.ts). */
type RunName =
	| 'get'
	| 'put'
	| 'del'
	| 'watch'
	| 'compaction'
	| 'defrag'
	| 'endpoint health'
	| 'endpoint status'
	| 'endpoint hashkv'
	| 'member list'
	| 'move-leader'
	| 'member remove'
	| 'member add'
	| 'alarm list'
	| 'alarm disarm'
	| 'snapshot save'
	| 'version'
	| 'help';

export interface CommandNode {
	use: string;
	short: string;
	long?: string;
	example?: string;
	/** Flags defined on this command only. */
	flags?: FlagSpec[];
	/** Flags this command passes to its subcommands (cobra PersistentFlags). */
	persistentFlags?: FlagSpec[];
	children?: CommandNode[];
	/** Absent for groups (not runnable: cobra prints their help). */
	run?: RunName | 'unsimulated';
}

const bool = (name: string, usage: string, shorthand?: string): FlagSpec => ({ name, kind: 'bool', def: 'false', usage, ...(shorthand ? { shorthand } : {}) });
const str = (name: string, def: string, usage: string): FlagSpec => ({ name, kind: 'string', def, usage });
const int64 = (name: string, usage: string): FlagSpec => ({ name, kind: 'int64', def: '0', usage });

/** etcdctl/util/normalizer.go Normalize: each line trimmed and indented by two spaces. */
function normalize(text: string): string {
	return text
		.trim()
		.split('\n')
		.map((line) => '  ' + line.trim())
		.join('\n');
}

const SNAPSHOT_EXAMPLE = normalize(`
	# Save snapshot to a given file
	etcdctl snapshot save /backup/etcd-snapshot.db

	# Get snapshot from given address and save it to file
	etcdctl snapshot save --endpoints=127.0.0.1:3000 /backup/etcd-snapshot.db

	# Get snapshot from given address with certificates
	etcdctl --endpoints=https://127.0.0.1:2379 --cacert=/etc/etcd/ca.crt --cert=/etc/etcd/etcd.crt --key=/etc/etcd/etcd.key snapshot save /backup/etcd-snapshot.db

	# Get snapshot wih certain user and password
	etcdctl --user=root --password=password123 snapshot save /backup/etcd-snapshot.db

	# Get snapshot from given address with timeout
	etcdctl --endpoints=https://127.0.0.1:2379 --dial-timeout=20s snapshot save /backup/etcd-snapshot.db

	# Save snapshot with desirable time format
	etcdctl snapshot save /mnt/backup/etcd/backup_$(date +%Y%m%d_%H%M%S).db`);

const unsimulated = (use: string, short: string, children?: CommandNode[]): CommandNode => (children ? { use, short, children } : { use, short, run: 'unsimulated' });

/** The root command and its tree, in cobra's sorted order. */
export const ROOT: CommandNode = {
	use: 'etcdctl',
	short: 'A simple command line client for etcd3.',
	persistentFlags: GLOBAL_FLAGS,
	children: [
		{
			use: 'alarm <subcommand>',
			short: 'Alarm related commands',
			children: [
				{ use: 'disarm', short: 'Disarms all alarms', run: 'alarm disarm' },
				{ use: 'list', short: 'Lists all alarms', run: 'alarm list' },
			],
		},
		unsimulated('auth <enable or disable>', 'Enable or disable authentication', [unsimulated('disable', 'Disables authentication'), unsimulated('enable', 'Enables authentication'), unsimulated('status', 'Returns authentication status')]),
		unsimulated('check <subcommand>', 'commands for checking properties of the etcd cluster', [
			unsimulated('datascale [options]', 'Check the memory usage of holding data for different workloads on a given server endpoint.'),
			unsimulated('perf [options]', 'Check the performance of the etcd cluster'),
		]),
		{ use: 'compaction [options] <revision>', short: 'Compacts the event history in etcd', flags: [bool('physical', "'true' to wait for compaction to physically remove all old revisions")], run: 'compaction' },
		unsimulated('completion [bash|zsh|fish|powershell]', 'Generate completion script'),
		{ use: 'defrag', short: 'Defragments the storage of the etcd members with given endpoints', persistentFlags: [bool('cluster', 'use all endpoints from the cluster member list')], run: 'defrag' },
		{
			use: 'del [options] <key> [range_end]',
			short: 'Removes the specified key or range of keys [key, range_end)',
			flags: [bool('prefix', 'delete keys with matching prefix'), bool('prev-kv', 'return deleted key-value pairs'), bool('from-key', 'delete keys that are greater than or equal to the given key using byte compare'), bool('range', 'delete range of keys')],
			run: 'del',
		},
		unsimulated('downgrade <TARGET_VERSION>', 'Downgrade related commands', [
			unsimulated('cancel', 'Cancel the ongoing downgrade action to cluster'),
			unsimulated('enable <TARGET_VERSION>', 'Start a downgrade action to cluster'),
			unsimulated('validate <TARGET_VERSION>', 'Validate downgrade capability before starting downgrade'),
		]),
		unsimulated('elect <election-name> [proposal]', 'Observes and participates in leader election'),
		{
			use: 'endpoint <subcommand>',
			short: 'Endpoint related commands',
			persistentFlags: [bool('cluster', 'use all endpoints from the cluster member list')],
			children: [
				{ use: 'hashkv', short: 'Prints the KV history hash for each endpoint in --endpoints', persistentFlags: [int64('rev', 'maximum revision to hash (default: latest revision)')], run: 'endpoint hashkv' },
				{ use: 'health', short: 'Checks the healthiness of endpoints specified in `--endpoints` flag', run: 'endpoint health' },
				{
					use: 'status',
					short: 'Prints out the status of endpoints specified in `--endpoints` flag',
					long: 'When --write-out is set to simple, this command prints out comma-separated status lists for each endpoint.\nThe items in the lists are endpoint, ID, version, db size, is leader, is learner, raft term, raft index, raft applied index, errors.\n',
					run: 'endpoint status',
				},
			],
		},
		{
			use: 'get [options] <key> [range_end]',
			short: 'Gets the key or a range of keys',
			flags: [
				str('consistency', 'l', 'Linearizable(l) or Serializable(s)'),
				str('order', '', 'Order of results; ASCEND or DESCEND (ASCEND by default)'),
				str('sort-by', '', 'Sort target; CREATE, KEY, MODIFY, VALUE, or VERSION'),
				int64('limit', 'Maximum number of results'),
				bool('prefix', 'Get keys with matching prefix'),
				bool('from-key', 'Get keys that are greater than or equal to the given key using byte compare'),
				int64('rev', 'Specify the kv revision'),
				bool('keys-only', 'Get only the keys'),
				bool('count-only', 'Get only the count'),
				bool('print-value-only', 'Only write values when using the "simple" output format'),
				int64('min-create-rev', 'Minimum create revision'),
				int64('max-create-rev', 'Maximum create revision'),
				int64('min-mod-rev', 'Minimum modification revision'),
				int64('max-mod-rev', 'Maximum modification revision'),
			],
			run: 'get',
		},
		{ use: 'help [command]', short: 'Help about any command', long: 'Help provides help for any command in the application.\nSimply type etcdctl help [path to command] for full details.', run: 'help' },
		unsimulated('lease <subcommand>', 'Lease related commands', [
			unsimulated('grant <ttl>', 'Creates leases'),
			unsimulated('keep-alive [options] <leaseID>', 'Keeps leases alive (renew)'),
			unsimulated('list', 'List all active leases'),
			unsimulated('revoke <leaseID>', 'Revokes leases'),
			unsimulated('timetolive <leaseID> [options]', 'Get lease information'),
		]),
		unsimulated('lock <lockname> [exec-command arg1 arg2 ...]', 'Acquires a named lock'),
		unsimulated('make-mirror [options] <destination>', 'Makes a mirror at the destination etcd cluster'),
		{
			use: 'member <subcommand>',
			short: 'Membership related commands',
			children: [
				{
					use: 'add <memberName> [options]',
					short: 'Adds a member into the cluster',
					flags: [str('peer-urls', '', 'comma separated peer URLs for the new member.'), bool('learner', 'indicates if the new member is raft learner')],
					run: 'member add',
				},
				{
					use: 'list',
					short: 'Lists all members in the cluster',
					long: 'When --write-out is set to simple, this command prints out comma-separated member lists for each endpoint.\nThe items in the lists are ID, Status, Name, Peer Addrs, Client Addrs, Is Learner.\n',
					flags: [str('consistency', 'l', 'Linearizable(l) or Serializable(s)')],
					run: 'member list',
				},
				unsimulated('promote <memberID>', 'Promotes a non-voting member in the cluster'),
				{ use: 'remove <memberID>', short: 'Removes a member from the cluster', run: 'member remove' },
				unsimulated('update <memberID> [options]', 'Updates a member in the cluster'),
			],
		},
		{ use: 'move-leader <transferee-member-id>', short: 'Transfers leadership to another etcd cluster member.', run: 'move-leader' },
		{
			use: 'put [options] <key> <value> (<value> can also be given from stdin)',
			short: 'Puts the given key into the store',
			long:
				"\nPuts the given key into the store.\n\nWhen <value> begins with '-', <value> is interpreted as a flag.\nInsert '--' for workaround:\n\n$ put <key> -- <value>\n$ put -- <key> <value>\n\n" +
				"If <value> isn't given as a command line argument and '--ignore-value' is not specified,\nthis command tries to read the value from standard input.\n\n" +
				"If <lease> isn't given as a command line argument and '--ignore-lease' is not specified,\nthis command tries to read the value from standard input.\n\nFor example,\n$ cat file | put <key>\nwill store the content of the file to <key>.\n",
			flags: [
				str('lease', '0', 'lease ID (in hexadecimal) to attach to the key'),
				bool('prev-kv', 'return the previous key-value pair before modification'),
				bool('ignore-value', 'updates the key using its current value'),
				bool('ignore-lease', 'updates the key using its current lease'),
			],
			run: 'put',
		},
		unsimulated('role <subcommand>', 'Role related commands', [
			unsimulated('add <role name>', 'Adds a new role'),
			unsimulated('delete <role name>', 'Deletes a role'),
			unsimulated('get <role name>', 'Gets detailed information of a role'),
			unsimulated('grant-permission [options] <role name> <permission type> <key> [endkey]', 'Grants a key to a role'),
			unsimulated('list', 'Lists all roles'),
			unsimulated('revoke-permission <role name> <key> [endkey]', 'Revokes a key from a role'),
		]),
		{
			use: 'snapshot <subcommand>',
			short: 'Manages etcd node snapshots',
			example: SNAPSHOT_EXAMPLE,
			children: [{ use: 'save <filename>', short: 'Stores an etcd node backend snapshot to a given file', example: SNAPSHOT_EXAMPLE, run: 'snapshot save' }],
		},
		unsimulated('txn [options]', 'Txn processes all the requests in one transaction'),
		unsimulated('user <subcommand>', 'User related commands', [
			unsimulated('add <user name or user:password> [options]', 'Adds a new user'),
			unsimulated('delete <user name>', 'Deletes a user'),
			unsimulated('get <user name> [options]', 'Gets detailed information of a user'),
			unsimulated('grant-role <user name> <role name>', 'Grants a role to a user'),
			unsimulated('list', 'Lists all users'),
			unsimulated('passwd <user name> [options]', 'Changes password of user'),
			unsimulated('revoke-role <user name> <role name>', 'Revokes a role from a user'),
		]),
		{ use: 'version', short: 'Prints the version of etcdctl', run: 'version' },
		{
			use: 'watch [options] [key or prefix] [range_end] [--] [exec-command arg1 arg2 ...]',
			short: 'Watches events stream on keys or prefixes',
			flags: [
				bool('interactive', 'Interactive mode', 'i'),
				bool('prefix', 'Watch on a prefix if prefix is set'),
				int64('rev', 'Revision to start watching'),
				bool('prev-kv', 'get the previous key-value pair before the event happens'),
				bool('progress-notify', 'get periodic watch progress notification from server'),
			],
			run: 'watch',
		},
	],
};

/** The command's name: the first word of Use. */
export const nameOf = (node: CommandNode) => node.use.split(' ')[0];

/** A command found on the command line, with its ancestors. */
export interface CommandPath {
	node: CommandNode;
	/** Root first. */
	ancestors: CommandNode[];
}

/** Names from the root, e.g. `endpoint status` (cobrautl cmdName). */
export function pathName(path: CommandPath): string {
	return [...path.ancestors.slice(1), path.node].map(nameOf).join(' ');
}

/** cobra's `help` flag, added to every command. */
function helpFlag(node: CommandNode): FlagSpec {
	return { name: 'help', shorthand: 'h', kind: 'bool', def: 'false', usage: `help for ${nameOf(node)}` };
}

/** Flags a command accepts: its own, its persistent ones, its ancestors' persistent ones, and help. */
export function flagsOf(path: CommandPath): { local: FlagSpec[]; inherited: FlagSpec[] } {
	const local = [...(path.node.flags ?? []), ...(path.node.persistentFlags ?? []), helpFlag(path.node)];
	const inherited = path.ancestors.flatMap((a) => a.persistentFlags ?? []);
	return { local, inherited };
}

/** Every descendant in cobra's order (getSubCommands: each child, then its own subtree). */
function descendants(node: CommandNode, ancestors: CommandNode[]): CommandPath[] {
	return (node.children ?? []).flatMap((child) => [{ node: child, ancestors: [...ancestors, node] }, ...descendants(child, [...ancestors, node])]);
}

/**
 * The usage text cobrautl.UsageFunc prints (and cobra prints for --help, a
 * group command, or a flag error), through tabwriter(0, 8, 1, '\t').
 */
export function usageText(path: CommandPath): string {
	const { node, ancestors } = path;
	const isRoot = ancestors.length === 0;
	const useLine = `${isRoot ? node.use : `${ancestors.map(nameOf).join(' ')} ${node.use}`} [flags]`;
	let out = 'NAME:\n';
	out += `  ${isRoot ? nameOf(node) : pathName(path)} - ${node.short}\n`;
	out += `\nUSAGE:\n  ${useLine}\n`;
	if (isRoot) out += `\nVERSION:\n  ${ETCD_VERSION}\n`;
	if (node.children?.length) out += `\nAPI VERSION:\n  ${ETCD_API_VERSION}\n`;
	if (node.example) out += `\nExamples:\n${node.example}\n`;
	if (node.children?.length) {
		out += '\nCOMMANDS:\n';
		for (const sub of descendants(node, [])) {
			if (!sub.node.run) continue;
			const name = [...sub.ancestors.slice(1), sub.node].map(nameOf).join(' ');
			out += `  ${name}\t${sub.node.short}\n`;
		}
	}
	if (node.long) {
		out += '\nDESCRIPTION:\n';
		for (const line of node.long.trim().split('\n')) out += `  ${line}\n`;
	}
	const { local, inherited } = flagsOf(path);
	out += `\nOPTIONS:\n${flagUsages(local)}`;
	if (inherited.length) out += `\nGLOBAL OPTIONS:\n${flagUsages(inherited)}`;
	return tabwriteWithTabs(out + '\n');
}
