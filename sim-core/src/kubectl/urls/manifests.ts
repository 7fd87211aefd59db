/**
 * The manifests behind the well-known URLs the chapters use, as their
 * hosts serve them: metrics-server's release manifest (v0.8.0, what
 * `releases/latest/download/components.yaml` redirects to), flannel's
 * kube-flannel.yml (./kube-flannel.ts) and the
 * kubernetes.io examples of the HPA walkthrough, the DNS debugging task,
 * the Service tutorials, the StatefulSet Basics tutorial and "Configure a
 * Pod to Use a PersistentVolume for Storage", and the quota and LimitRange
 * tasks ("Configure Memory and CPU Quotas for a Namespace", "Configure
 * Default Memory Requests and Limits for a Namespace"). The reader's workstation has no other
 * internet, so these copies stand for the files; the objects and their
 * fields are the upstream files' (comments dropped).
 *
 * Mirrors kubernetes-sigs/metrics-server manifests/base/ (rendered as the
 * v0.8.0 release's components.yaml),
 * kubernetes/website content/en/examples/application/php-apache.yaml,
 * kubernetes/website content/en/examples/admin/dns/dnsutils.yaml,
 * kubernetes/website content/en/examples/service/networking/run-my-nginx.yaml,
 * kubernetes/website content/en/examples/service/networking/nginx-svc.yaml,
 * kubernetes/website content/en/examples/application/deployment.yaml,
 * kubernetes/website content/en/examples/application/deployment-update.yaml,
 * kubernetes/website content/en/examples/application/web/web.yaml,
 * kubernetes/website content/en/examples/application/web/web-parallel.yaml,
 * kubernetes/website content/en/examples/pods/storage/pv-volume.yaml,
 * kubernetes/website content/en/examples/pods/storage/pv-claim.yaml,
 * kubernetes/website content/en/examples/pods/storage/pv-pod.yaml,
 * kubernetes/website content/en/examples/admin/resource/quota-mem-cpu.yaml,
 * kubernetes/website content/en/examples/admin/resource/quota-mem-cpu-pod.yaml,
 * kubernetes/website content/en/examples/admin/resource/quota-mem-cpu-pod-2.yaml,
 * kubernetes/website content/en/examples/admin/resource/memory-defaults.yaml,
 * kubernetes/website content/en/examples/admin/resource/memory-defaults-pod.yaml.
 */

import { FLANNEL_VERSION, KUBE_FLANNEL_YML } from './kube-flannel.ts';

/** The metrics-server release the `latest` download stands for. */
export const METRICS_SERVER_VERSION = 'v0.8.0';

/** The image of that release. */
export const METRICS_SERVER_IMAGE = `registry.k8s.io/metrics-server/metrics-server:${METRICS_SERVER_VERSION}`;

const METRICS_SERVER_COMPONENTS = `apiVersion: v1
kind: ServiceAccount
metadata:
  labels:
    k8s-app: metrics-server
  name: metrics-server
  namespace: kube-system
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  labels:
    k8s-app: metrics-server
    rbac.authorization.k8s.io/aggregate-to-admin: "true"
    rbac.authorization.k8s.io/aggregate-to-edit: "true"
    rbac.authorization.k8s.io/aggregate-to-view: "true"
  name: system:aggregated-metrics-reader
rules:
- apiGroups:
  - metrics.k8s.io
  resources:
  - pods
  - nodes
  verbs:
  - get
  - list
  - watch
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  labels:
    k8s-app: metrics-server
  name: system:metrics-server
rules:
- apiGroups:
  - ""
  resources:
  - nodes/metrics
  verbs:
  - get
- apiGroups:
  - ""
  resources:
  - pods
  - nodes
  verbs:
  - get
  - list
  - watch
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata:
  labels:
    k8s-app: metrics-server
  name: metrics-server-auth-reader
  namespace: kube-system
roleRef:
  apiGroup: rbac.authorization.k8s.io
  kind: Role
  name: extension-apiserver-authentication-reader
subjects:
- kind: ServiceAccount
  name: metrics-server
  namespace: kube-system
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata:
  labels:
    k8s-app: metrics-server
  name: metrics-server:system:auth-delegator
roleRef:
  apiGroup: rbac.authorization.k8s.io
  kind: ClusterRole
  name: system:auth-delegator
subjects:
- kind: ServiceAccount
  name: metrics-server
  namespace: kube-system
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata:
  labels:
    k8s-app: metrics-server
  name: system:metrics-server
roleRef:
  apiGroup: rbac.authorization.k8s.io
  kind: ClusterRole
  name: system:metrics-server
subjects:
- kind: ServiceAccount
  name: metrics-server
  namespace: kube-system
---
apiVersion: v1
kind: Service
metadata:
  labels:
    k8s-app: metrics-server
  name: metrics-server
  namespace: kube-system
spec:
  ports:
  - name: https
    port: 443
    protocol: TCP
    targetPort: https
  selector:
    k8s-app: metrics-server
---
apiVersion: apps/v1
kind: Deployment
metadata:
  labels:
    k8s-app: metrics-server
  name: metrics-server
  namespace: kube-system
spec:
  selector:
    matchLabels:
      k8s-app: metrics-server
  strategy:
    rollingUpdate:
      maxUnavailable: 0
  template:
    metadata:
      labels:
        k8s-app: metrics-server
    spec:
      containers:
      - args:
        - --cert-dir=/tmp
        - --secure-port=10250
        - --kubelet-preferred-address-types=InternalIP,ExternalIP,Hostname
        - --kubelet-use-node-status-port
        - --metric-resolution=15s
        image: ${METRICS_SERVER_IMAGE}
        imagePullPolicy: IfNotPresent
        livenessProbe:
          failureThreshold: 3
          httpGet:
            path: /livez
            port: https
            scheme: HTTPS
          periodSeconds: 10
        name: metrics-server
        ports:
        - containerPort: 10250
          name: https
          protocol: TCP
        readinessProbe:
          failureThreshold: 3
          httpGet:
            path: /readyz
            port: https
            scheme: HTTPS
          initialDelaySeconds: 20
          periodSeconds: 10
        resources:
          requests:
            cpu: 100m
            memory: 200Mi
        securityContext:
          allowPrivilegeEscalation: false
          capabilities:
            drop:
            - ALL
          readOnlyRootFilesystem: true
          runAsNonRoot: true
          runAsUser: 1000
          seccompProfile:
            type: RuntimeDefault
        volumeMounts:
        - mountPath: /tmp
          name: tmp-dir
      nodeSelector:
        kubernetes.io/os: linux
      priorityClassName: system-cluster-critical
      serviceAccountName: metrics-server
      volumes:
      - emptyDir: {}
        name: tmp-dir
---
apiVersion: apiregistration.k8s.io/v1
kind: APIService
metadata:
  labels:
    k8s-app: metrics-server
  name: v1beta1.metrics.k8s.io
spec:
  group: metrics.k8s.io
  groupPriorityMinimum: 100
  insecureSkipTLSVerify: true
  service:
    name: metrics-server
    namespace: kube-system
  version: v1beta1
  versionPriority: 100
`;

const PHP_APACHE = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: php-apache
spec:
  selector:
    matchLabels:
      run: php-apache
  template:
    metadata:
      labels:
        run: php-apache
    spec:
      containers:
      - name: php-apache
        image: registry.k8s.io/hpa-example
        ports:
        - containerPort: 80
        resources:
          limits:
            cpu: 500m
          requests:
            cpu: 200m
---
apiVersion: v1
kind: Service
metadata:
  name: php-apache
  labels:
    run: php-apache
spec:
  ports:
  - port: 80
  selector:
    run: php-apache
`;

const DNSUTILS = `apiVersion: v1
kind: Pod
metadata:
  name: dnsutils
  namespace: default
spec:
  containers:
  - name: dnsutils
    image: registry.k8s.io/e2e-test-images/jessie-dnsutils:1.3
    command:
      - sleep
      - "infinity"
    imagePullPolicy: IfNotPresent
  restartPolicy: Always
`;

const RUN_MY_NGINX = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: my-nginx
spec:
  selector:
    matchLabels:
      run: my-nginx
  replicas: 2
  template:
    metadata:
      labels:
        run: my-nginx
    spec:
      containers:
      - name: my-nginx
        image: nginx
        ports:
        - containerPort: 80
`;

const NGINX_SVC = `apiVersion: v1
kind: Service
metadata:
  name: my-nginx
  labels:
    run: my-nginx
spec:
  ports:
  - port: 80
    protocol: TCP
  selector:
    run: my-nginx
`;

const nginxDeployment = (image: string) => `apiVersion: apps/v1
kind: Deployment
metadata:
  name: nginx-deployment
spec:
  selector:
    matchLabels:
      app: nginx
  replicas: 2 # tells deployment to run 2 pods matching the template
  template:
    metadata:
      labels:
        app: nginx
    spec:
      containers:
      - name: nginx
        image: ${image}
        ports:
        - containerPort: 80
`;

/** The Deployments concept page's example: three nginx 1.14.2 Pods labelled app: nginx. */
const CONTROLLERS_NGINX_DEPLOYMENT = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: nginx-deployment
  labels:
    app: nginx
spec:
  replicas: 3
  selector:
    matchLabels:
      app: nginx
  template:
    metadata:
      labels:
        app: nginx
    spec:
      containers:
      - name: nginx
        image: nginx:1.14.2
        ports:
        - containerPort: 80
`;

/**
 * The StatefulSet Basics tutorial's headless Service and StatefulSet. web.yaml
 * selects `app: nginx` (the tutorial's `-l app=nginx`) and runs nginx-slim
 * 0.21; web-parallel.yaml, the Parallel variant, uses the
 * `app.kubernetes.io/name` label and 0.24, as the website's file does.
 */
const webStatefulSet = (label: string, image: string, parallel: boolean) => `apiVersion: v1
kind: Service
metadata:
  name: nginx
  labels:
    ${label}: nginx
spec:
  ports:
  - port: 80
    name: web
  clusterIP: None
  selector:
    ${label}: nginx
---
apiVersion: apps/v1
kind: StatefulSet
metadata:
  name: web
spec:
  serviceName: "nginx"
${parallel ? '  podManagementPolicy: "Parallel"\n' : ''}  replicas: 2
  selector:
    matchLabels:
      ${label}: nginx
  template:
    metadata:
      labels:
        ${label}: nginx
    spec:
      containers:
      - name: nginx
        image: ${image}
        ports:
        - containerPort: 80
          name: web
        volumeMounts:
        - name: www
          mountPath: /usr/share/nginx/html
  volumeClaimTemplates:
  - metadata:
      name: www
    spec:
      accessModes: [ "ReadWriteOnce" ]
      resources:
        requests:
          storage: 1Gi
`;

/** "Configure a Pod to Use a PersistentVolume for Storage": a hostPath volume, a claim for it, a Pod that mounts the claim. */
const PV_VOLUME = `apiVersion: v1
kind: PersistentVolume
metadata:
  name: task-pv-volume
  labels:
    type: local
spec:
  storageClassName: manual
  capacity:
    storage: 10Gi
  accessModes:
    - ReadWriteOnce
  hostPath:
    path: "/mnt/data"
`;

const PV_CLAIM = `apiVersion: v1
kind: PersistentVolumeClaim
metadata:
  name: task-pv-claim
spec:
  storageClassName: manual
  accessModes:
    - ReadWriteOnce
  resources:
    requests:
      storage: 3Gi
`;

const PV_POD = `apiVersion: v1
kind: Pod
metadata:
  name: task-pv-pod
spec:
  volumes:
    - name: task-pv-storage
      persistentVolumeClaim:
        claimName: task-pv-claim
  containers:
    - name: task-pv-container
      image: nginx
      ports:
        - containerPort: 80
          name: "http-server"
      volumeMounts:
        - mountPath: "/usr/share/nginx/html"
          name: task-pv-storage
`;

/** A Pod of one container with requests and limits (the quota task's Pods). */
function resourcesPod(name: string, image: string, limits: { memory: string; cpu: string }, requests: { memory: string; cpu: string }): string {
	return `apiVersion: v1
kind: Pod
metadata:
  name: ${name}
spec:
  containers:
  - name: ${name}-ctr
    image: ${image}
    resources:
      limits:
        memory: "${limits.memory}"
        cpu: "${limits.cpu}"
      requests:
        memory: "${requests.memory}"
        cpu: "${requests.cpu}"
`;
}

const QUOTA_MEM_CPU = `apiVersion: v1
kind: ResourceQuota
metadata:
  name: mem-cpu-demo
spec:
  hard:
    requests.cpu: "1"
    requests.memory: 1Gi
    limits.cpu: "2"
    limits.memory: 2Gi
`;

const MEMORY_DEFAULTS = `apiVersion: v1
kind: LimitRange
metadata:
  name: mem-limit-range
spec:
  limits:
  - default:
      memory: 512Mi
    defaultRequest:
      memory: 256Mi
    type: Container
`;

const MEMORY_DEFAULTS_POD = `apiVersion: v1
kind: Pod
metadata:
  name: default-mem-demo
spec:
  containers:
  - name: default-mem-demo-ctr
    image: nginx
`;

/** kubernetes.io's examples, by their path under content/en/examples/. */
const WEBSITE_EXAMPLES: Record<string, string> = {
	'application/php-apache.yaml': PHP_APACHE,
	'admin/dns/dnsutils.yaml': DNSUTILS,
	'service/networking/run-my-nginx.yaml': RUN_MY_NGINX,
	'service/networking/nginx-svc.yaml': NGINX_SVC,
	'application/deployment.yaml': nginxDeployment('nginx:1.14.2'),
	'application/deployment-update.yaml': nginxDeployment('nginx:1.16.1'),
	'controllers/nginx-deployment.yaml': CONTROLLERS_NGINX_DEPLOYMENT,
	'application/web/web.yaml': webStatefulSet('app', 'registry.k8s.io/nginx-slim:0.21', false),
	'application/web/web-parallel.yaml': webStatefulSet('app.kubernetes.io/name', 'registry.k8s.io/nginx-slim:0.24', true),
	'pods/storage/pv-volume.yaml': PV_VOLUME,
	'pods/storage/pv-claim.yaml': PV_CLAIM,
	'pods/storage/pv-pod.yaml': PV_POD,
	'admin/resource/quota-mem-cpu.yaml': QUOTA_MEM_CPU,
	'admin/resource/quota-mem-cpu-pod.yaml': resourcesPod('quota-mem-cpu-demo', 'nginx', { memory: '800Mi', cpu: '800m' }, { memory: '600Mi', cpu: '400m' }),
	'admin/resource/quota-mem-cpu-pod-2.yaml': resourcesPod('quota-mem-cpu-demo-2', 'redis', { memory: '1Gi', cpu: '800m' }, { memory: '700Mi', cpu: '400m' }),
	'admin/resource/memory-defaults.yaml': MEMORY_DEFAULTS,
	'admin/resource/memory-defaults-pod.yaml': MEMORY_DEFAULTS_POD,
};

/** The prefixes under which the website's examples are served (k8s.io redirects to kubernetes.io). */
const WEBSITE_PREFIXES = ['https://k8s.io/examples/', 'https://kubernetes.io/examples/', 'https://raw.githubusercontent.com/kubernetes/website/main/content/en/examples/'];

const METRICS_SERVER_URLS = [
	'https://github.com/kubernetes-sigs/metrics-server/releases/latest/download/components.yaml',
	`https://github.com/kubernetes-sigs/metrics-server/releases/download/${METRICS_SERVER_VERSION}/components.yaml`,
];

/** flannel's release manifest: the `latest` download, the release's own, and the copy in the repository's Documentation/. */
const KUBE_FLANNEL_URLS = [
	'https://github.com/flannel-io/flannel/releases/latest/download/kube-flannel.yml',
	`https://github.com/flannel-io/flannel/releases/download/${FLANNEL_VERSION}/kube-flannel.yml`,
	'https://raw.githubusercontent.com/flannel-io/flannel/master/Documentation/kube-flannel.yml',
];

/** The hosts the workstation reaches (each answers 404 for what it does not hold). */
export const REACHABLE_HOSTS: readonly string[] = ['github.com', 'k8s.io', 'kubernetes.io', 'raw.githubusercontent.com'];

/** The file a URL serves, or undefined when the host has no such file. */
export function servedFile(url: string): string | undefined {
	if (METRICS_SERVER_URLS.includes(url)) return METRICS_SERVER_COMPONENTS;
	if (KUBE_FLANNEL_URLS.includes(url)) return KUBE_FLANNEL_YML;
	for (const prefix of WEBSITE_PREFIXES) if (url.startsWith(prefix)) return WEBSITE_EXAMPLES[url.slice(prefix.length)];
	return undefined;
}
