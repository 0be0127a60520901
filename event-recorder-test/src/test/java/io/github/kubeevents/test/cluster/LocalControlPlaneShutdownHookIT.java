package io.github.kubeevents.test.cluster;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import io.kubernetes.client.openapi.apis.CoreV1Api;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The JVM shutdown hook of a {@link LocalControlPlane} bound to an owner ({@link LocalControlPlane#bindToOwner}),
 * run directly ({@link LocalControlPlane#onJvmShutdown()}; a test cannot make the JVM run its hooks): it closes the
 * owner first and waits for the owner's thread to close the control plane, which the API server still answers until
 * then; an owner that does not close it in time gets it killed, as an unbound control plane is at once.
 */
class LocalControlPlaneShutdownHookIT {

	@Test
	void theHookWaitsForTheOwnerClosingOnAnotherThread() throws Exception {
		LocalControlPlane cp = LocalControlPlane.builder().start();
		List<ProcessHandle> processes = cp.processes();
		List<String> steps = new CopyOnWriteArrayList<>();
		Thread[] hook = new Thread[1];
		// like Spring Boot's shutdown hook: the context is closed on another thread, and the owner's close() returns
		// at once; that thread writes once the control plane's hook is waiting, then closes the control plane
		Thread ownerThread = new Thread(() -> {
			await().atMost(Duration.ofSeconds(30))
				.pollInterval(Duration.ofMillis(10))
				.until(() -> hook[0].getState() == Thread.State.TIMED_WAITING || !hook[0].isAlive());
			try {
				new CoreV1Api(cp.adminClient()).listNamespace().execute();
				steps.add("last write answered");
			}
			catch (Exception ex) {
				steps.add("last write failed: " + ex);
			}
			cp.close();
			steps.add("closed by the owner");
		}, "owner-close");
		cp.bindToOwner(() -> {
			steps.add("owner asked to close");
			ownerThread.start();
		}, Duration.ofSeconds(60));
		hook[0] = new Thread(cp::onJvmShutdown, "jvm-shutdown-hook");

		hook[0].start();
		hook[0].join(Duration.ofSeconds(90).toMillis());
		ownerThread.join(Duration.ofSeconds(30).toMillis());

		assertThat(hook[0].isAlive()).isFalse();
		assertThat(steps).containsExactly("owner asked to close", "last write answered", "closed by the owner");
		assertThat(processes).noneMatch(ProcessHandle::isAlive);
		assertThat(cp.directory()).doesNotExist();
	}

	@Test
	void anOwnerThatDoesNotCloseInTimeGetsItKilled() throws Exception {
		LocalControlPlane cp = LocalControlPlane.builder().start();
		List<ProcessHandle> processes = cp.processes();
		Path directory = cp.directory();
		List<String> steps = new CopyOnWriteArrayList<>();
		cp.bindToOwner(() -> steps.add("owner asked to close"), Duration.ZERO);

		cp.onJvmShutdown();

		assertThat(steps).containsExactly("owner asked to close");
		assertThat(processes).noneMatch(ProcessHandle::isAlive);
		assertThat(directory).doesNotExist();
		cp.close();
	}

}
