package io.github.kubeevents.test.cluster;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The command lines of the two processes of a {@link LocalControlPlane}: a single-member etcd without fsync, and a
 * kube-apiserver with RBAC, the static token file, the service-account key pair and issuer, admission without
 * {@code ServiceAccount}, no endpoint reconciler (its "kubernetes" Service cannot point at a loopback address), the
 * event TTL, and then the caller's extra flags, which so win over the built-in ones. Immutable.
 *
 * @param assets directory holding {@code etcd} and {@code kube-apiserver}
 * @param directory where data, certificates and credentials are
 * @param ports the loopback ports
 * @param eventTtl kube-apiserver's {@code --event-ttl}
 * @param extraApiServerArgs flags appended to kube-apiserver's command line
 */
record ControlPlaneCommands(Path assets, ControlPlaneDirectory directory, ControlPlanePorts ports, Duration eventTtl,
		List<String> extraApiServerArgs) {

	/**
	 * The etcd command line.
	 * @return a new list
	 */
	List<String> etcd() {
		String client = this.ports.etcdUrl();
		String peer = this.ports.etcdPeerUrl();
		return List.of(this.assets.resolve("etcd").toString(), "--name=envtest",
				"--data-dir=" + this.directory.etcdData(), "--listen-client-urls=" + client,
				"--advertise-client-urls=" + client, "--listen-peer-urls=" + peer,
				"--initial-advertise-peer-urls=" + peer, "--initial-cluster=envtest=" + peer,
				"--initial-cluster-state=new", "--unsafe-no-fsync=true", "--log-level=warn");
	}

	/**
	 * The kube-apiserver command line.
	 * @return a new list
	 */
	List<String> apiServer() {
		List<String> cmd = new ArrayList<>(List.of(this.assets.resolve("kube-apiserver").toString(),
				"--bind-address=" + ControlPlanePorts.LOOPBACK, "--advertise-address=" + ControlPlanePorts.LOOPBACK,
				"--secure-port=" + this.ports.apiServer(), "--etcd-servers=" + this.ports.etcdUrl(),
				"--cert-dir=" + this.directory.certs(), "--authorization-mode=RBAC",
				"--token-auth-file=" + this.directory.tokenFile(),
				"--service-account-issuer=https://kubernetes.default.svc.cluster.local",
				"--service-account-key-file=" + this.directory.saPublicKey(),
				"--service-account-signing-key-file=" + this.directory.saPrivateKey(),
				"--service-cluster-ip-range=10.0.0.0/24", "--disable-admission-plugins=ServiceAccount",
				"--allow-privileged=true",
				// the "kubernetes" Service cannot point at a loopback address; nothing here needs it
				"--endpoint-reconciler-type=none", "--event-ttl=" + Durations.toGo(this.eventTtl)));
		cmd.addAll(this.extraApiServerArgs);
		return cmd;
	}

}
