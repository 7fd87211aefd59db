/**
 * `kubectl certificate approve|deny (-f FILENAME | NAME...) [--force]`:
 * adds an Approved (reason KubectlApprove) or Denied (KubectlDeny)
 * condition to each CertificateSigningRequest through its `approval`
 * subresource, then prints `certificatesigningrequest.certificates.k8s.io/NAME
 * approved`. A request that already has the condition is not written again
 * unless --force; one with the opposite condition is an error
 * (`certificate signing request "NAME" is already Denied`). A conflict is
 * retried with the latest object, up to ten times. The approval itself
 * issues nothing: the signing controller of kube-controller-manager does.
 *
 * Mirrors staging/src/k8s.io/kubectl/pkg/cmd/certificates/certificates.go.
 */
import type { KubeObject } from '../../api/types.ts';
import { R } from '../../client/client.ts';
import { formatRfc3339 } from '../../golang/time.ts';
import type { CommandResult } from '../../shell/types.ts';
import type { FlagSpec } from '../flags.ts';
import type { KubectlCommand, KubectlInvocation } from '../kubectl.ts';
import { callError, checkErr, plain, type KubectlError } from './check-err.ts';
import { PRINT_FLAGS, toPrinter } from './print-flags.ts';
import { unionFlags, type Subcommand } from './subcommand.ts';
import { runParent } from './help.ts';
import { visit } from './visit.ts';

interface Condition {
	type: string;
	status: string;
	reason?: string;
	message?: string;
	lastUpdateTime?: string;
}

interface Decision {
	/** The condition this command adds, and the one that must not be there. */
	type: 'Approved' | 'Denied';
	opposite: 'Approved' | 'Denied';
	reason: string;
	message: string;
	/** The printer's operation word. */
	operation: string;
}

const APPROVE: Decision = { type: 'Approved', opposite: 'Denied', reason: 'KubectlApprove', message: 'This CSR was approved by kubectl certificate approve.', operation: 'approved' };
const DENY: Decision = { type: 'Denied', opposite: 'Approved', reason: 'KubectlDeny', message: 'This CSR was denied by kubectl certificate deny.', operation: 'denied' };

/** How many times a conflicting approval is retried with a fresh read. */
const CONFLICT_RETRIES = 10;

/** Both subcommands' flags (--force: update the CSR even if it already has the condition). */
function flags(): FlagSpec[] {
	return [
		...PRINT_FLAGS,
		{ name: 'force', kind: 'bool' },
		{ name: 'filename', short: 'f', kind: 'stringArray' },
		{ name: 'recursive', short: 'R', kind: 'bool' },
		{ name: 'kustomize', short: 'k', kind: 'string' },
	];
}

/** addConditionIfNeeded: the request with the condition added, whether it already had it, or the error. */
function addCondition(csr: KubeObject, decision: Decision, now: string): { csr: KubeObject; had: boolean } | { error: string } {
	const status = (csr.status ?? {}) as { conditions?: Condition[] };
	let had = false;
	for (const c of status.conditions ?? []) {
		if (c.type === decision.opposite) return { error: `certificate signing request ${JSON.stringify(csr.metadata.name ?? '')} is already ${c.type}` };
		if (c.type === decision.type) had = true;
	}
	if (had) return { csr, had };
	const conditions = [...(status.conditions ?? []), { type: decision.type, status: 'True', reason: decision.reason, message: decision.message, lastUpdateTime: now }];
	return { csr: { ...csr, status: { ...status, conditions } }, had: false };
}

function run(inv: KubectlInvocation, decision: Decision): CommandResult {
	const { args } = inv;
	const printer = toPrinter(args);
	if ('error' in printer) return checkErr(printer.error);
	const names = args.positionals;
	const filenames = (args.flags.filename as string[] | undefined) ?? [];
	if (names.length === 0 && filenames.length === 0 && !args.flags.kustomize) return checkErr(plain('one or more CSRs must be specified as <name> or -f <filename>'));
	const visited = visit(inv, { allowEmptySelector: false, requireObject: true, args: names.length ? ['certificatesigningrequests', ...names] : [] });
	if (visited.usage) return { stdout: '', stderr: visited.usage, exitCode: 1 };
	if (visited.fatal) return checkErr(visited.fatal);
	let stdout = '';
	let found = 0;
	for (const target of visited.targets) {
		if (target.info.group !== 'certificates.k8s.io' || target.info.resource !== 'certificatesigningrequests') {
			return checkErr(plain(`can only handle CertificateSigningRequest.certificates.k8s.io objects, got ${target.info.kind}${target.info.group ? `.${target.info.group}` : ''}`), stdout);
		}
		const error = decide(inv, target.name, decision);
		if (error) return checkErr(error, stdout);
		found++;
		stdout += printer.printer(target.object!, decision.operation);
	}
	const errors: KubectlError[] = visited.errors;
	if (errors.length) return checkErr(errors.length === 1 ? errors[0] : { kind: 'aggregate', errors }, stdout);
	if (found === 0) stdout += 'No resources found\n';
	return { stdout, stderr: '', exitCode: 0 };
}

/** One request: read it, add the condition, write it through `approval` (retrying conflicts). */
function decide(inv: KubectlInvocation, name: string, decision: Decision): KubectlError | undefined {
	const force = inv.args.flags.force === true;
	for (let attempt = 0; ; attempt++) {
		const got = inv.client.get(R.certificatesigningrequests, undefined, name);
		if (!got.ok) {
			if (got.code === 404) return plain(`could not find v1 or v1beta1 version of ${name}: ${got.message}`);
			return callError(got, inv.env.serverUrl);
		}
		const modified = addCondition(got.object, decision, formatRfc3339(inv.env.wallMs()));
		if ('error' in modified) return plain(modified.error);
		if (modified.had && !force) return undefined;
		const written = inv.client.update(R.certificatesigningrequests, modified.csr, 'approval');
		if (written.ok) return undefined;
		if (written.code === 409 && attempt < CONFLICT_RETRIES) continue;
		return callError(written, inv.env.serverUrl);
	}
}

const SUBCOMMANDS: Subcommand[] = [
	{ name: 'approve', summary: 'Approve a certificate signing request', usage: 'kubectl certificate approve (-f FILENAME | NAME)', flags: flags(), run: (inv) => run(inv, APPROVE) },
	{ name: 'deny', summary: 'Deny a certificate signing request', usage: 'kubectl certificate deny (-f FILENAME | NAME)', flags: flags(), run: (inv) => run(inv, DENY) },
];

export const certificateCommand: KubectlCommand = {
	name: 'certificate',
	summary: 'Modify certificate resources',
	usage: 'kubectl certificate SUBCOMMAND',
	subcommands: SUBCOMMANDS.map((s) => s.name),
	flags: unionFlags(...SUBCOMMANDS.map((s) => s.flags)),
	handlesHelp: true,
	// cobra: `Run: cmd.Help()`, so a bare `kubectl certificate` prints its help on stdout and succeeds.
	run: (inv) => runParent(inv, { name: 'certificate', long: 'Modify certificate resources.', usage: 'kubectl certificate SUBCOMMAND', flags: certificateCommand.flags, bare: 'help' }, SUBCOMMANDS),
};
