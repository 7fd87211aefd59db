/**
 * Help texts of kubectl's troubleshooting commands (see ./index.ts):
 * describe, logs, exec, attach, port-forward, proxy, cp, debug, events and
 * the auth subcommands.
 *
 * Mirrors nothing upstream: the simulator's own help texts.
 */
import type { HelpText } from './index.ts';
import { examples, fileMeanings, PRINT_MEANINGS, SELECTOR_MEANING } from './common.ts';

const POD_RUNNING_TIMEOUT = 'How long to wait for the Pod to be running before giving up.';
const CONTAINER = 'The container to use; without it, the one the kubectl.kubernetes.io/default-container annotation names, else the first.';

export const TROUBLESHOOTING_HELP: Readonly<Record<string, HelpText>> = {
	describe: {
		long: 'Show details of a specific resource or group of resources.\n\n Prints a readable report of each object: the fields that matter most for its kind, its conditions and status, and the recent Events about it, which often say why something is stuck. A name given is taken as a prefix, so "kubectl describe pods web" covers every Pod whose name starts with web.',
		examples: examples(
			['A node: its conditions, capacity, taints and the Pods it runs', 'kubectl describe node node-1'],
			['Every Pod labelled app=web', 'kubectl describe pods -l app=web'],
			['A Deployment, without its events', 'kubectl describe deployment/web --show-events=false'],
			['The CoreDNS Pods, by name prefix', 'kubectl describe pods coredns -n kube-system'],
		),
		flags: {
			...fileMeanings('describe'),
			'all-namespaces': 'Describe the matching objects of every namespace.',
			'chunk-size': 'Fetch large lists from the server in pages of this many objects; 0 fetches all at once.',
			selector: SELECTOR_MEANING,
			'show-events': 'End each report with the Events about the object; false leaves them out.',
		},
	},
	logs: {
		long: 'Print the logs for a container in a pod.\n\n Prints what a container wrote to its stdout and stderr. In a Pod with several containers, pick one with -c or take them all with --all-containers. Given a workload such as deployment/web, kubectl reads one of its Pods, or every one with --all-pods.\n\n A container that crashed and restarted keeps the output of its last run: read it with -p.',
		examples: examples(
			['The logs of the CoreDNS Deployment', 'kubectl logs deployment/coredns -n kube-system'],
			['Follow new lines as they come, starting from the last 20', 'kubectl logs -f --tail=20 deployment/web'],
			['The last hour, with timestamps', 'kubectl logs deployment/web --since=1h --timestamps'],
			['Every Pod labelled app=web, each line prefixed with its source', 'kubectl logs -l app=web --prefix'],
			['What a container printed before its last restart', 'kubectl logs web-6d4cf56db6-x7k2p -c nginx -p'],
		),
		flags: {
			'all-containers': 'Print the logs of every container of the Pods.',
			'all-pods': 'For a workload, print the logs of all its Pods rather than one.',
			container: 'The container whose logs to print.',
			follow: 'Keep printing new lines as they are written.',
			'ignore-errors': 'While following several Pods, carry on when one stream fails.',
			'insecure-skip-tls-verify-backend': 'Skip checking the serving certificate of the kubelet the logs come from.',
			'limit-bytes': 'Stop after this many bytes; 0 means no limit.',
			'max-log-requests': 'With a selector, the most log streams to follow at once.',
			'pod-running-timeout': POD_RUNNING_TIMEOUT,
			prefix: 'Start each line with the Pod and container it came from.',
			previous: 'Print the logs of the container\'s previous run, before its last restart.',
			selector: 'Read the Pods matching this label selector, e.g. app=web.',
			since: 'Only lines newer than this, e.g. 10m or 2h; 0s means all.',
			'since-time': 'Only lines written after this time, in RFC3339 form.',
			tail: 'Only the last this many lines; -1 means all, or the last 10 per Pod with a selector.',
			timestamps: 'Start each line with the time it was written.',
		},
	},
	exec: {
		long: 'Execute a command in a container.\n\n Runs a program inside a running container and relays its output and exit code. Put the command after --, so that its own flags are not read as kubectl\'s. With -i and -t it is interactive, e.g. a shell.',
		examples: examples(
			['Run one command in a Pod of a Deployment', 'kubectl exec deploy/web -- nginx -v'],
			['An interactive shell', 'kubectl exec -it deploy/web -- sh'],
			['A file inside a chosen container', 'kubectl exec web-6d4cf56db6-x7k2p -c nginx -- cat /etc/nginx/nginx.conf'],
			['The environment a container sees', 'kubectl exec deploy/web -- env'],
		),
		flags: {
			container: CONTAINER,
			filename: 'A file naming the Pod to run the command in.',
			'pod-running-timeout': POD_RUNNING_TIMEOUT,
			quiet: 'Print only the command\'s output, no messages of kubectl\'s own.',
			stdin: 'Pass your input to the command.',
			tty: 'Give the command a terminal, as shells and other interactive programs need.',
		},
	},
	attach: {
		long: 'Attach to a running container.\n\n Connects to the main process of a container that is already running, showing what it prints from now on and, with -i, sending it your input. Unlike exec, it starts no new process.',
		examples: examples(
			['See what a Pod prints from now on', 'kubectl attach web-6d4cf56db6-x7k2p'],
			['Type into the shell of a Pod started with kubectl run -it', 'kubectl attach -it tmp'],
			['A chosen container of a Deployment\'s Pod', 'kubectl attach deploy/web -c nginx'],
		),
		flags: {
			container: CONTAINER,
			'pod-running-timeout': POD_RUNNING_TIMEOUT,
			quiet: 'Print only the container\'s output, no messages of kubectl\'s own.',
			stdin: 'Pass your input to the container.',
			tty: 'Treat the session as a terminal; the container must have been started with a tty.',
		},
	},
	'port-forward': {
		long: 'Forward one or more local ports to a pod.\n\n Listens on local ports and tunnels each connection through the API server to a port of one Pod, until you stop it. Given a Service or workload, kubectl picks one of its Pods (and maps a Service port to the Pod port behind it); it does not balance across Pods.',
		examples: examples(
			['Local port 8080 to port 80 of a Deployment\'s Pod', 'kubectl port-forward deployment/web 8080:80'],
			['The same port number on both ends', 'kubectl port-forward svc/web 80'],
			['Listen on every local address, not only localhost', 'kubectl port-forward --address=0.0.0.0 pod/api 8080:8080'],
			['A free local port chosen for you', 'kubectl port-forward svc/web :80'],
		),
		flags: {
			address: 'The local addresses to listen on, separated by commas: localhost, 0.0.0.0 or IP addresses.',
			'pod-running-timeout': POD_RUNNING_TIMEOUT,
		},
	},
	proxy: {
		long: 'Run a proxy to the Kubernetes API server.\n\n Serves the API on a local port (or socket) and adds your kubeconfig credentials to every request, so plain HTTP tools such as curl can talk to the cluster. By default it answers only on localhost and refuses paths that could open shells into Pods.',
		examples: examples(
			['The API on http://127.0.0.1:8001', 'kubectl proxy', 'curl http://127.0.0.1:8001/api/v1/namespaces/default/pods'],
			['Another port, with the API under /k8s/', 'kubectl proxy --port=8080 --api-prefix=/k8s/'],
			['Also serve local files under /static/', 'kubectl proxy --www=./site'],
		),
		flags: {
			'accept-hosts': 'A regular expression of host names the proxy answers for.',
			'accept-paths': 'A regular expression of the paths the proxy forwards.',
			address: 'The IP address to listen on.',
			'api-prefix': 'The path under which the API is served.',
			'append-server-path': 'Add the path of the server URL in your kubeconfig to each request.',
			'disable-filter': 'Skip the host, path and method checks; risky on an address others can reach.',
			keepalive: 'The TCP keep-alive period of connections; 0 turns keep-alive off.',
			port: 'The port to listen on; 0 picks a free one.',
			'reject-methods': 'A regular expression of HTTP methods to refuse.',
			'reject-paths': 'A regular expression of paths to refuse.',
			'unix-socket': 'Listen on this Unix socket instead of a TCP port.',
			www: 'Also serve the files of this directory, under --www-prefix.',
			'www-prefix': 'The path under which the --www files are served.',
		},
	},
	cp: {
		long: 'Copy files and directories to and from containers.\n\n One side is a local path, the other POD:PATH (or NAMESPACE/POD:PATH). The copy goes through a tar run inside the container, so the image must have tar: many minimal images, such as etcd\'s, do not.',
		examples: examples(
			['A local file into a Pod', 'kubectl cp ./index.html web-6d4cf56db6-x7k2p:/usr/share/nginx/html/index.html'],
			['A directory out of a Pod in another namespace', 'kubectl cp team-a/api:/etc/nginx ./nginx-conf'],
			['A chosen container, without keeping owners and modes', 'kubectl cp ./app.conf api:/etc/app/app.conf -c app --no-preserve'],
		),
		flags: {
			container: CONTAINER,
			'no-preserve': 'Do not keep the owner and permissions of the files copied.',
			retries: 'How many times to resume after the stream breaks; 0 never, a negative number without end.',
		},
	},
	debug: {
		long: 'Create debugging sessions for troubleshooting workloads and nodes.\n\n Given a Pod, adds an ephemeral container with the image of your choice, which can share the processes of a --target container. With --copy-to it makes a changed copy of the Pod instead, e.g. with other images or a shell added. Given node/NAME, it starts a Pod on that node with the host\'s file system under /host.\n\n --profile sets what the debug container may do.',
		examples: examples(
			['A shell next to a running container, seeing its processes', 'kubectl debug -it pod/api --image=busybox:1.36 --target=api'],
			['A copy of a Pod with another image for its app container', 'kubectl debug pod/api --copy-to=api-debug --set-image=api=nginx:1.28'],
			['A shell on a node', 'kubectl debug node/node-1 -it --image=busybox:1.36'],
			['A copy of a Pod with a shell added, on the same node', 'kubectl debug pod/api -it --copy-to=api-debug --image=busybox:1.36 --same-node --share-processes'],
		),
		flags: {
			'arguments-only': 'Pass the words after -- as the container\'s arguments, keeping the image\'s entrypoint.',
			attach: 'Attach to the debug container once it runs; on by default with -i.',
			container: 'The name of the debug container.',
			'copy-to': 'Make a copy of the Pod with this name and debug the copy.',
			custom: 'A JSON or YAML file of container fields to merge into the debug container.',
			env: 'An environment variable KEY=value for the debug container; repeat the flag for more.',
			filename: 'A file naming the Pod to debug.',
			image: 'The image of the debug container.',
			'image-pull-policy': 'When the kubelet pulls the image: Always, IfNotPresent or Never.',
			'keep-annotations': 'With --copy-to, keep the Pod\'s annotations on the copy.',
			'keep-init-containers': 'With --copy-to, keep the Pod\'s init containers.',
			'keep-labels': 'With --copy-to, keep the Pod\'s labels on the copy.',
			'keep-liveness': 'With --copy-to, keep the liveness probes.',
			'keep-readiness': 'With --copy-to, keep the readiness probes.',
			'keep-startup': 'With --copy-to, keep the startup probes.',
			profile: 'The preset for the debug container\'s privileges: legacy, general, baseline, netadmin, restricted or sysadmin.',
			quiet: 'Print no messages of kubectl\'s own.',
			replace: 'With --copy-to, delete the original Pod.',
			'same-node': 'With --copy-to, place the copy on the node of the original.',
			'set-image': 'With --copy-to, a container=image change for the copy; * stands for every container.',
			'share-processes': 'With --copy-to, let the containers of the copy see each other\'s processes.',
			stdin: 'Keep stdin open on the debug container, and pass your input to it when attached.',
			target: 'The container whose process namespace the ephemeral container joins.',
			tty: 'Give the debug container a terminal; needs -i.',
		},
	},
	events: {
		long: 'List events.\n\n Prints the Events of the namespace, oldest first, with how long ago each last happened and how often. Events record what controllers, the scheduler and kubelets did or failed to do, and are kept for about an hour.',
		examples: examples(
			['The events of the current namespace', 'kubectl events'],
			['Only warnings, in every namespace', 'kubectl events -A --types=Warning'],
			['The events of one Pod, and new ones as they come', 'kubectl events --for=pod/api --watch'],
			['As YAML', 'kubectl events -n kube-system -o yaml'],
		),
		flags: {
			...PRINT_MEANINGS,
			'all-namespaces': 'List the events of every namespace.',
			'chunk-size': 'Fetch large lists from the server in pages of this many objects; 0 fetches all at once.',
			for: 'Only the events about this object, given as TYPE/NAME.',
			'no-headers': 'Leave out the header row.',
			output: 'Print the events as json, yaml, name, go-template=..., jsonpath=... instead of a table.',
			types: 'Only events of these types: Normal, Warning or both.',
			watch: 'After listing, keep printing new events as they happen.',
		},
	},
	'auth can-i': {
		long: 'Check whether an action is allowed.\n\n Asks the API server whether you (or, with --as, someone else) may do VERB to a resource type, object or non-resource URL, and prints yes or no. With --list it prints all that is allowed in the namespace.',
		examples: examples(
			['May I create Deployments here?', 'kubectl auth can-i create deployments'],
			['May a service account read Secrets in kube-system?', 'kubectl auth can-i get secrets -n kube-system --as=system:serviceaccount:default:default'],
			['May I read the logs of Pods?', 'kubectl auth can-i get pods --subresource=log'],
			['Everything I may do in this namespace', 'kubectl auth can-i --list'],
		),
		flags: {
			'all-namespaces': 'Ask about every namespace at once.',
			list: 'List every action allowed in the namespace.',
			'no-headers': 'With --list, leave out the header row.',
			quiet: 'Print nothing: the exit code answers, 0 for yes and 1 for no.',
			subresource: 'The subresource the action is on, e.g. log or status.',
		},
	},
	'auth whoami': {
		long: 'Experimental: Check self subject attributes.\n\n Prints who the API server takes you to be: your user name, UID, groups and any extra attributes, as the authenticator found them. Useful when a token or certificate does not grant what you expected.',
		examples: examples(
			['Who am I to the cluster?', 'kubectl auth whoami'],
			['The same, as YAML', 'kubectl auth whoami -o yaml'],
			['Just the groups', 'kubectl auth whoami -o jsonpath=\'{.status.userInfo.groups}\''],
		),
		flags: {
			...PRINT_MEANINGS,
			output: 'Print the answer as json, yaml, go-template=..., jsonpath=... instead of a table.',
		},
	},
};
