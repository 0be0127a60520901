package io.github.kubeevents.test.cluster;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;

/**
 * The loopback ports of one {@link LocalControlPlane}: etcd's client and peer ports and kube-apiserver's secure port,
 * picked free once and kept for its life (so a restarted kube-apiserver comes back on the same URL). Immutable.
 *
 * @param etcd etcd's client port
 * @param etcdPeer etcd's peer port
 * @param apiServer kube-apiserver's {@code --secure-port}
 */
record ControlPlanePorts(int etcd, int etcdPeer, int apiServer) {

	/** The address everything listens on. */
	static final String LOOPBACK = "127.0.0.1";

	/**
	 * Three distinct free ports on {@value #LOOPBACK}.
	 * @return the ports
	 * @throws IOException when no socket can be opened
	 */
	static ControlPlanePorts allocate() throws IOException {
		int[] ports = freeLoopbackPorts(3);
		return new ControlPlanePorts(ports[0], ports[1], ports[2]);
	}

	/**
	 * kube-apiserver's URL.
	 * @return {@code https://127.0.0.1:<port>}
	 */
	String apiServerUrl() {
		return "https://" + LOOPBACK + ":" + this.apiServer;
	}

	/**
	 * etcd's client URL.
	 * @return {@code http://127.0.0.1:<port>}
	 */
	String etcdUrl() {
		return "http://" + LOOPBACK + ":" + this.etcd;
	}

	/**
	 * etcd's peer URL.
	 * @return {@code http://127.0.0.1:<peer port>}
	 */
	String etcdPeerUrl() {
		return "http://" + LOOPBACK + ":" + this.etcdPeer;
	}

	/** Distinct free ports on 127.0.0.1 (held open together so they differ, then released). */
	private static int[] freeLoopbackPorts(int count) throws IOException {
		List<ServerSocket> sockets = new ArrayList<>();
		try {
			int[] ports = new int[count];
			for (int i = 0; i < count; i++) {
				ServerSocket s = new ServerSocket(0, 1, InetAddress.getByName(LOOPBACK));
				s.setReuseAddress(true);
				sockets.add(s);
				ports[i] = s.getLocalPort();
			}
			return ports;
		}
		finally {
			for (ServerSocket s : sockets) {
				s.close();
			}
		}
	}

}
