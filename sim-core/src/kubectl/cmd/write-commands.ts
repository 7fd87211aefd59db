/**
 * kubectl commands that change the cluster or reach into pods: apply, create, run, delete, edit, scale, rollout, set, label, annotate, taint, cordon, drain, logs, exec, attach, auth, patch, wait.
 *
 * Mirrors staging/src/k8s.io/kubectl/pkg/cmd/cmd.go (NewKubectlCommand's
 * command groups).
 */
import type { KubectlCommand } from '../kubectl.ts';
import { annotateCommand } from './annotate.ts';
import { applyCommand } from './apply.ts';
import { authCommand } from './auth.ts';
import { createCommand } from './create.ts';
import { deleteCommand } from './delete.ts';
import { editCommand } from './edit.ts';
import { cordonCommand, drainCommand, uncordonCommand } from './drain.ts';
import { attachCommand } from './attach.ts';
import { debugCommand } from './debug.ts';
import { execCommand } from './exec.ts';
import { cpCommand } from './cp.ts';
import { exposeCommand } from './expose.ts';
import { autoscaleCommand } from './autoscale.ts';
import { labelCommand } from './label.ts';
import { logsCommand } from './logs.ts';
import { patchCommand } from './patch.ts';
import { replaceCommand } from './replace.ts';
import { rolloutCommand } from './rollout.ts';
import { certificateCommand } from './certificate.ts';
import { runCommand } from './run.ts';
import { scaleCommand } from './scale.ts';
import { setCommand } from './set.ts';
import { taintCommand } from './taint.ts';
import { waitCommand } from './wait.ts';

export const WRITE_COMMANDS: KubectlCommand[] = [
	applyCommand,
	createCommand,
	runCommand,
	deleteCommand,
	replaceCommand,
	editCommand,
	patchCommand,
	exposeCommand,
	autoscaleCommand,
	scaleCommand,
	rolloutCommand,
	certificateCommand,
	setCommand,
	labelCommand,
	annotateCommand,
	taintCommand,
	cordonCommand,
	uncordonCommand,
	drainCommand,
	logsCommand,
	execCommand,
	cpCommand,
	attachCommand,
	debugCommand,
	authCommand,
	waitCommand,
];
