package io.github.kubeevents.test.connection;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;
import java.util.stream.Stream;

import io.github.kubeevents.test.cluster.KubernetesTestCluster.Identity;
import io.github.kubeevents.test.cluster.KubernetesTestCluster;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.core.Ordered;

/**
 * How to look at the Events in a {@link KubernetesTestCluster} from a shell: writes the cluster's CA certificate and
 * an admin kubeconfig to a new temporary directory and, when the application is ready, logs {@code curl} commands
 * (admin bearer token, that CA) for both events APIs in namespace {@code default}, and a {@code kubectl} command.
 * The directory is deleted when the bean is destroyed. Used by {@link TestClusterDevConfiguration}.
 *
 * <p>The admin token is printed as is: it belongs to a throwaway cluster on this machine.
 *
 * <p>Thread-safe (immutable after construction).
 */
public final class TestClusterInstructions
		implements ApplicationListener<ApplicationReadyEvent>, DisposableBean, Ordered {

	/** The events.k8s.io/v1 Events of namespace {@code default}. */
	public static final String EVENTS_V1_PATH = "/apis/events.k8s.io/v1/namespaces/default/events";

	/** The core/v1 Events of namespace {@code default}. */
	public static final String CORE_V1_PATH = "/api/v1/namespaces/default/events";

	private static final Logger logger = LoggerFactory.getLogger(TestClusterInstructions.class);

	private final KubernetesTestCluster cluster;

	private final Path directory;

	private final Path caFile;

	private final Path kubeconfigFile;

	/**
	 * Writes the files.
	 * @param cluster the cluster
	 * @throws UncheckedIOException when a file cannot be written
	 */
	public TestClusterInstructions(KubernetesTestCluster cluster) {
		this.cluster = Objects.requireNonNull(cluster, "cluster");
		try {
			this.directory = Files.createTempDirectory("kube-events-dev-cluster-");
			this.caFile = Files.write(this.directory.resolve("ca.crt"), cluster.caCertificate());
			this.kubeconfigFile = cluster.writeKubeconfig(this.directory.resolve("kubeconfig"), Identity.ADMIN);
		}
		catch (IOException ex) {
			throw new UncheckedIOException("could not write the test cluster's CA and kubeconfig", ex);
		}
	}

	/**
	 * A {@code curl} command reading {@code path} from the API server as admin.
	 * @param path e.g. {@link #EVENTS_V1_PATH}
	 * @return {@code curl -sS --cacert '<ca.crt>' -H 'Authorization: Bearer <token>' '<url><path>'}
	 */
	public String curl(String path) {
		return "curl -sS --cacert " + quote(this.caFile.toString()) + " -H "
				+ quote("Authorization: Bearer " + this.cluster.adminToken()) + " " + quote(this.cluster.baseUrl() + path);
	}

	/**
	 * A {@code kubectl} command listing the Events of every namespace.
	 * @return {@code kubectl --kubeconfig '<file>' get events -A}
	 */
	public String kubectl() {
		return "kubectl --kubeconfig " + quote(this.kubeconfigFile.toString()) + " get events -A";
	}

	/**
	 * The whole text that is logged.
	 * @return several lines, without a trailing line break
	 */
	public String text() {
		return String.join(System.lineSeparator(),
				"Kubernetes test cluster for this run (" + this.cluster.backend() + ", " + this.cluster.baseUrl()
						+ "); the application writes its Events there. To see them:",
				"  events.k8s.io/v1:  " + curl(EVENTS_V1_PATH),
				"  core/v1:           " + curl(CORE_V1_PATH),
				"  kubectl:           " + kubectl(),
				"The cluster and " + this.directory + " are removed when the application stops.");
	}

	/**
	 * The CA certificate file.
	 * @return the PEM file {@code curl --cacert} reads
	 */
	public Path caFile() {
		return this.caFile;
	}

	/**
	 * The admin kubeconfig file.
	 * @return the file {@code kubectl --kubeconfig} reads
	 */
	public Path kubeconfigFile() {
		return this.kubeconfigFile;
	}

	/**
	 * Logs {@link #text()} at INFO.
	 * @param event the application is ready
	 */
	@Override
	public void onApplicationEvent(ApplicationReadyEvent event) {
		logger.info("{}{}", System.lineSeparator(), text());
	}

	/**
	 * Before application listeners without an order, so that an application's own hints follow these.
	 * @return {@code Ordered.LOWEST_PRECEDENCE - 100}
	 */
	@Override
	public int getOrder() {
		return Ordered.LOWEST_PRECEDENCE - 100;
	}

	/** Deletes the files. */
	@Override
	public void destroy() {
		try (Stream<Path> files = Files.list(this.directory)) {
			for (Path file : files.toList()) {
				Files.deleteIfExists(file);
			}
			Files.deleteIfExists(this.directory);
		}
		catch (IOException ex) {
			logger.debug("Could not delete {}", this.directory, ex);
		}
	}

	private static String quote(String value) {
		return "'" + value.replace("'", "'\\''") + "'";
	}

}
