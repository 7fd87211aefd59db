/**
 * The disk tools on a node's shell: `du` over its files, `df` over the machine's mounts (its
 * root disk, the tmpfs mounts Ubuntu makes, and the overlay and shm mounts
 * containerd makes for every container and sandbox, which a real node's
 * `df` lists too), and `dd` and `fallocate`, which write onto the root
 * disk (../host/disk-fill.ts), so a reader can fill a node from `ssh` as
 * well as from a Pod.
 *
 * tmpfs sizes follow systemd and Ubuntu: /run is 10% of the memory,
 * /dev/shm half of it, /run/lock 5 MiB.
 *
 * Mirrors systemd/systemd src/shared/mount-setup.c (/run and /dev/shm
 * sizes), containerd/containerd internal/cri/server/podsandbox
 * (the sandbox's shm mount), core/mount (each container's rootfs overlay).
 */
import type { CommandHandler, CommandResult } from "../shell/types.ts";
import { gnuDf, type DfMount } from "../host/df.ts";
import { du } from "../host/du.ts";
import { tmpfsStats } from "../host/filesystem-stats.ts";
import { ddCommand, fallocateCommand } from "../host/disk-fill.ts";
import { zeroFilled } from "../host/zero-filled.ts";
import { FsError } from "../host/fs.ts";
import { parseQuantity } from "../api/quantity.ts";
import type { NodeHost } from "./node-host.ts";
import { nodeRootFsStats } from "./node-root-fs.ts";

const MI = 1024 * 1024;
/** containerd's sandbox /dev/shm: 64 MiB. */
const SANDBOX_SHM_BYTES = 64 * MI;

/** The machine's mount table as df reads it. */
function nodeMounts(host: NodeHost): DfMount[] {
  const memory = parseQuantity(host.options.memory).value();
  const root = nodeRootFsStats(host.fs, host.runtimeState);
  const mounts: DfMount[] = [
    {
      source: "tmpfs",
      type: "tmpfs",
      target: "/run",
      stats: tmpfsStats(
        Math.floor(memory / 10 / 4096) * 4096,
        1_200 * 1024,
        900,
      ),
      device: "tmpfs-run",
    },
    {
      source: "/dev/sda1",
      type: "ext4",
      target: "/",
      stats: root,
      device: "sda1",
    },
    {
      source: "tmpfs",
      type: "tmpfs",
      target: "/dev/shm",
      stats: tmpfsStats(Math.floor(memory / 2 / 4096) * 4096),
      device: "tmpfs-shm",
    },
    {
      source: "tmpfs",
      type: "tmpfs",
      target: "/run/lock",
      stats: tmpfsStats(5 * MI),
      device: "tmpfs-lock",
    },
  ];
  const state = host.runtimeState;
  for (const sandbox of Object.values(state.sandboxes)) {
    if (sandbox.state !== "SANDBOX_READY") continue;
    mounts.push({
      source: "shm",
      type: "tmpfs",
      target: `/run/containerd/io.containerd.grpc.v1.cri/sandboxes/${sandbox.id}/shm`,
      stats: tmpfsStats(SANDBOX_SHM_BYTES),
      device: `shm-${sandbox.id}`,
    });
    mounts.push({
      source: "overlay",
      type: "overlay",
      target: `/run/containerd/io.containerd.runtime.v2.task/k8s.io/${sandbox.id}/rootfs`,
      stats: root,
      device: `overlay-${sandbox.id}`,
    });
  }
  for (const c of Object.values(state.containers)) {
    if (c.state !== "CONTAINER_RUNNING") continue;
    mounts.push({
      source: "overlay",
      type: "overlay",
      target: `/run/containerd/io.containerd.runtime.v2.task/k8s.io/${c.id}/rootfs`,
      stats: root,
      device: `overlay-${c.id}`,
    });
  }
  return mounts;
}

/** `df` on the node. */
export function nodeDf(host: NodeHost): CommandHandler {
  return (ctx) =>
    gnuDf(nodeMounts(host), ctx.argv.slice(1), (path) =>
      ctx.host.fs.exists(path),
    );
}

/** `du` on the node, over its files. */
export function nodeDu(): CommandHandler {
  return (ctx) => {
    const fs = ctx.host.fs;
    const tree = {
      list: (path: string) => (fs.isDir(path) ? fs.list(path) : undefined),
      fileBytes: (path: string) => {
        const st = fs.stat(path);
        return st && !st.isDir ? st.size : undefined;
      },
    };
    return du(tree, ctx.argv.slice(1), (path) => fs.resolve(path));
  };
}

/** `dd` or `fallocate` on the node: the file lands on the root disk. */
export function nodeDiskFill(
  host: NodeHost,
  tool: "dd" | "fallocate",
): CommandHandler {
  return (ctx): CommandResult => {
    const free = nodeRootFsStats(host.fs, host.runtimeState).availableBytes;
    const args = ctx.argv.slice(1);
    const result =
      tool === "dd"
        ? ddCommand(false, args, ctx.stdin.length, free)
        : fallocateCommand(false, args, free);
    let stderr = result.stderr.map((l) => `${l}\n`).join("");
    let exitCode = result.status;
    if (result.write) {
      try {
        ctx.host.fs.writeFile(
          result.write.path,
          zeroFilled(result.write.bytes),
        );
      } catch (error) {
        const reason = error instanceof FsError ? error.message : String(error);
        stderr =
          tool === "dd"
            ? `dd: failed to open '${result.write.path}': ${reason}\n`
            : `fallocate: cannot open ${result.write.path}: ${reason}\n`;
        exitCode = 1;
      }
    }
    return { stdout: "", stderr, exitCode };
  };
}
