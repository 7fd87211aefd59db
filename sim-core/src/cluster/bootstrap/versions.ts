/**
 * The versions a v1.36 kubeadm cluster runs. The image references live with
 * the container runtime's image catalogue (runtime/images.ts), which knows
 * their sizes; the bootstrap takes them from there so the two never drift.
 *
 * Mirrors cmd/kubeadm/app/constants/constants.go (the versions kubeadm v1.36
 * installs).
 */
import { COREDNS_IMAGE, ETCD_IMAGE, KUBERNETES_IMAGE_VERSION, PAUSE_IMAGE } from '../../runtime/images.ts';

/** The newest v1.36 patch release (FACTS.md, "Version basis"). */
export const KUBERNETES_VERSION = KUBERNETES_IMAGE_VERSION;
export { COREDNS_IMAGE, ETCD_IMAGE, PAUSE_IMAGE };

export const controlPlaneImage = (component: string) => `registry.k8s.io/${component}:${KUBERNETES_VERSION}`;
