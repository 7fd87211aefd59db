/**
 * Every kubectl command the simulation knows. Reading commands (get,
 * describe, ...) and changing commands (apply, delete, rollout, ...) are
 * registered in their own lists.
 *
 * Mirrors staging/src/k8s.io/kubectl/pkg/cmd/cmd.go (NewKubectlCommand's
 * command groups).
 */
import type { KubectlCommand } from '../kubectl.ts';
import { READ_COMMANDS } from './read-commands.ts';
import { WRITE_COMMANDS } from './write-commands.ts';

export const COMMANDS: readonly KubectlCommand[] = [...READ_COMMANDS, ...WRITE_COMMANDS];
