package io.github.kubeevents.test.cluster;

import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;

/**
 * The main class of the "test JVM" that {@link LeftoverCleanupIT} starts and SIGKILLs: starts a control plane (state
 * directory from {@code -Dkubeevents.test.cluster.state-dir}), prints {@code READY <etcd pid> <apiserver pid> <dir>}
 * and waits to be killed.
 */
public final class LeftoverChild {

	private LeftoverChild() {
	}

	/**
	 * Runs until killed.
	 * @param args the assets directory
	 * @throws InterruptedException never in practice
	 */
	public static void main(String[] args) throws InterruptedException {
		LocalControlPlane cp = LocalControlPlane.builder().assetsDirectory(Path.of(args[0])).start();
		System.out.println("READY " + cp.processes().get(0).pid() + " " + cp.processes().get(1).pid() + " "
				+ cp.directory());
		System.out.flush();
		new CountDownLatch(1).await();
	}

}
