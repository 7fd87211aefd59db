/**
 * kubectl commands that read the cluster: get, describe, api-resources, api-versions, version, cluster-info, events, config, explain, top.
 *
 * Mirrors staging/src/k8s.io/kubectl/pkg/cmd/cmd.go (NewKubectlCommand's
 * command groups).
 */
import type { KubectlCommand } from '../kubectl.ts';
import { getCommand } from './get.ts';
import { describeCommand } from './describe.ts';
import { apiResourcesCommand, apiVersionsCommand } from './api-resources.ts';
import { versionCommand } from './version.ts';
import { clusterInfoCommand } from './cluster-info.ts';
import { eventsCommand } from './events.ts';
import { configCommand } from './config.ts';
import { explainCommand } from './explain.ts';
import { topCommand } from './top.ts';
import { diffCommand } from './diff.ts';
import { pluginCommand } from './plugin.ts';
import { optionsCommand } from './options.ts';
import { portForwardCommand } from './port-forward.ts';
import { proxyCommand } from './proxy.ts';
import { completionCommand } from './completion.ts';
import { kustomizeCommand } from './kustomize.ts';

export const READ_COMMANDS: KubectlCommand[] = [getCommand, describeCommand, apiResourcesCommand, apiVersionsCommand, versionCommand, clusterInfoCommand, eventsCommand, configCommand, explainCommand, topCommand, diffCommand, pluginCommand, portForwardCommand, proxyCommand, completionCommand, kustomizeCommand, optionsCommand];
