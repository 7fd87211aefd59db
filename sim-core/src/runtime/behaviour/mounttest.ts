/**
 * agnhost mounttest, the volume checker of the Conformance suite's
 * ConfigMap, Secret, downward API, projected and emptyDir tests: it creates
 * files with exact modes (the umask cleared), then prints a path's file
 * system type, mode, permissions, owner and content, in a fixed order so
 * that one run can check a mount, write into it and read back.
 *
 * Mirrors kubernetes/kubernetes test/images/agnhost/mounttest/mt.go,
 * test/images/agnhost/mounttest/mt_utils.go,
 * test/images/agnhost/mounttest/mt_utils_linux.go (formatFsType).
 */
import type { CatalogImage } from '../images.ts';
import type { CommandOutcome, ContainerContext, FileOverrides, OutputLine } from '../behaviour.ts';
import { goFileModeString } from '../../host/file-mode.ts';
import { mountAt } from '../mounts.ts';
import { statFile } from './file-modes.ts';
import { listDirectory, normalizePath, readFile } from './rootfs.ts';
import { flagValue } from './userland.ts';

/** statfs f_type: ext4's magic for the node's disk under a bind mount, overlayfs for the container's own root. */
const EXT4_SUPER_MAGIC = 0xef53;
const OVERLAYFS_SUPER_MAGIC = 0x794c7630;
const INITIAL_CONTENT = 'mount-tester new file\n';

export function mounttest(image: CatalogImage, ctx: ContainerContext, files: FileOverrides, args: string[], out: OutputLine[]): CommandOutcome {
	const print = (text: string) => out.push({ stream: 'stdout', text });
	/** fmt.Printf of a line whose value may end in its own newline (file content): each line of it is a line of output. */
	const printValue = (prefix: string, value: string) => {
		const lines = `${prefix}${value}`.split('\n');
		for (const line of lines) print(line);
	};
	const flag = (name: string) => flagValue(args, [`--${name}`, `-${name}`]) ?? '';
	const written: Record<string, string> = {};
	const modes: Record<string, number> = {};
	/** The file as this run sees it: what it wrote itself first. */
	const contentOf = (path: string) => written[path] ?? readFile(image, ctx, files, path);
	const modeOf = (path: string) => (written[path] !== undefined ? { isDir: false, mode: modes[path] } : statFile(image, ctx, files, path));
	let failed = false;

	const fsTypePath = flag('fs_type');
	if (fsTypePath) {
		const p = normalizePath(fsTypePath, ctx);
		if (!modeOf(p)) {
			print(`error from statfs(${JSON.stringify(fsTypePath)}): no such file or directory`);
			failed = true;
		} else {
			const mount = mountAt(ctx.mounts, p)?.mount;
			print(`mount type of ${JSON.stringify(fsTypePath)}: ${mount?.tmpfs ? 'tmpfs' : mount ? EXT4_SUPER_MAGIC : OVERLAYFS_SUPER_MAGIC}`);
		}
	}

	const readContent = (raw: string) => {
		const content = contentOf(normalizePath(raw, ctx));
		if (content === undefined) {
			print(`error reading file content for ${JSON.stringify(raw)}: open ${raw}: no such file or directory`);
			failed = true;
			return;
		}
		printValue(`content of file ${JSON.stringify(raw)}: `, content);
	};

	for (const perm of ['0644', '0666', '0660', '0777']) {
		const raw = flag(`new_file_${perm}`);
		if (!raw) continue;
		const p = normalizePath(raw, ctx);
		const parent = p.slice(0, p.lastIndexOf('/')) || '/';
		if (mountAt(ctx.mounts, p)?.mount.readonly) {
			print(`error writing new file ${JSON.stringify(raw)}: open ${raw}: read-only file system`);
			failed = true;
			continue;
		}
		if (listDirectory(image, ctx, files, parent) === undefined) {
			print(`error writing new file ${JSON.stringify(raw)}: open ${raw}: no such file or directory`);
			failed = true;
			continue;
		}
		written[p] = INITIAL_CONTENT;
		// WriteFile's perm applies to a file it creates; an existing one keeps its mode.
		modes[p] = statFile(image, ctx, files, p)?.mode ?? parseInt(perm, 8);
		readContent(raw);
	}

	const stat = (raw: string, show: (m: { isDir: boolean; mode: number }) => void) => {
		if (!raw) return;
		const m = modeOf(normalizePath(raw, ctx));
		if (!m) {
			print(`error from Stat(${JSON.stringify(raw)}): stat ${raw}: no such file or directory`);
			failed = true;
			return;
		}
		show(m);
	};
	stat(flag('file_mode'), (m) => print(`mode of file ${JSON.stringify(flag('file_mode'))}: ${goFileModeString(m.isDir, m.mode)}`));
	// FileMode.Perm keeps the nine permission bits only.
	stat(flag('file_perm'), (m) => print(`perms of file ${JSON.stringify(flag('file_perm'))}: ${goFileModeString(false, m.mode & 0o777)}`));
	// The model runs every container as root and keeps no owners.
	stat(flag('file_owner'), () => {
		print(`owner UID of ${JSON.stringify(flag('file_owner'))}: 0`);
		print(`owner GID of ${JSON.stringify(flag('file_owner'))}: 0`);
	});
	if (flag('file_content')) readContent(flag('file_content'));
	// The loop reads until the content is what the writer side wrote; one read stands for it here.
	if (flag('file_content_in_loop')) readContent(flag('file_content_in_loop'));
	return { kind: 'done', status: failed ? 1 : 0, out, files: written, modes };
}
