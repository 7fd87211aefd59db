/**
 * Where the kubelet keeps a pod's volumes on the node: the upstream layout
 * `/var/lib/kubelet/pods/<uid>/volumes/<plugin>/<volume>`, with the plugin
 * name escaped (`kubernetes.io/configmap` → `kubernetes.io~configmap`), and
 * `/var/lib/kubelet/pods/<uid>/volume-subpaths/<volume>/<container>/<index>`
 * for subPath mounts. A reader who runs `ssh node-1` and `ls` these
 * directories finds what a real node shows, minus the `..data` symlinks.
 *
 * Mirrors pkg/kubelet/kubelet_getters.go (getPodDir, getPodVolumeDir,
 * getPodVolumeSubpathsDir), pkg/util/strings/escape.go
 * (EscapeQualifiedName).
 */

/** The kubelet's --root-dir default. */
export const KUBELET_ROOT_DIR = '/var/lib/kubelet';

/** The in-tree plugins this kubelet knows, by their registered names. */
export type VolumePluginName = 'kubernetes.io/configmap' | 'kubernetes.io/secret' | 'kubernetes.io/projected' | 'kubernetes.io/downward-api' | 'kubernetes.io/empty-dir' | 'kubernetes.io/host-path';

/** getPodDir. */
export function podDir(podUid: string): string {
	return `${KUBELET_ROOT_DIR}/pods/${podUid}`;
}

/** EscapeQualifiedName: `/` becomes `~` so a plugin name is one path element. */
function escapeQualifiedName(name: string): string {
	return name.replace(/\//g, '~');
}

/** getPodVolumeDir: where a plugin sets up one of the pod's volumes. */
export function podVolumeDir(podUid: string, plugin: VolumePluginName, volumeName: string): string {
	return `${podDir(podUid)}/volumes/${escapeQualifiedName(plugin)}/${volumeName}`;
}

/** The bind-mount source prepared for the `index`-th volumeMount of `container` when it has a subPath. */
export function volumeSubpathDir(podUid: string, volumeName: string, container: string, index: number): string {
	return `${podDir(podUid)}/volume-subpaths/${volumeName}/${container}/${index}`;
}

/** `a/b` under `dir`, with no doubled slash. */
export function joinPath(dir: string, rel: string): string {
	if (!rel) return dir;
	return `${dir === '/' ? '' : dir}/${rel}`;
}
