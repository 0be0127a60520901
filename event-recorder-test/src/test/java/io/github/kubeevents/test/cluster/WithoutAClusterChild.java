package io.github.kubeevents.test.cluster;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.testkit.engine.EngineTestKit;

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

/**
 * The main class of the JVM that {@link TestClusterUnavailableTests} starts on a "machine" without binaries and
 * without Docker: runs {@link NeedsACluster} with JUnit and writes to the file named by its argument, for the class,
 * its outcome, the skip reason or the exception's class, the number of its stack frames and its message (a file, as
 * Testcontainers logs to stdout).
 */
public final class WithoutAClusterChild {

	private WithoutAClusterChild() {
	}

	/**
	 * Runs the fixture.
	 * @param args the file to write
	 * @throws IOException when it cannot be written
	 */
	public static void main(String[] args) throws IOException {
		StringBuilder out = new StringBuilder();
		EngineTestKit.engine("junit-jupiter")
			.selectors(selectClass(NeedsACluster.class))
			.execute()
			.containerEvents()
			.stream()
			.filter((e) -> e.getTestDescriptor().getDisplayName().endsWith(NeedsACluster.class.getSimpleName()))
			.forEach((e) -> {
				e.getPayload(String.class).ifPresent((reason) -> out.append("SKIPPED\n").append(reason).append('\n'));
				e.getPayload(TestExecutionResult.class)
					.flatMap(TestExecutionResult::getThrowable)
					.ifPresent((t) -> out.append("FAILED ")
						.append(t.getClass().getName())
						.append(" frames=")
						.append(t.getStackTrace().length)
						.append(" cause=")
						.append(t.getCause())
						.append('\n')
						.append(t.getMessage())
						.append('\n'));
			});
		Files.writeString(Path.of(args[0]), out);
	}

	/** A test class that needs a cluster, with the defaults. */
	@WithTestCluster
	static class NeedsACluster {

		@Test
		void needsIt(KubernetesTestCluster cluster) {
		}

	}

}
