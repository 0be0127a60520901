package io.github.kubeevents.test.cluster;

import java.security.SecureRandom;
import java.util.Locale;
import java.util.Objects;

import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1Namespace;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A namespace of its own on a {@link KubernetesTestCluster}, for one test class: test classes share a cluster, and so
 * would share namespace {@code default} and see each other's objects and Events. {@link #close()} deletes it.
 *
 * <p>Usually made by the test support: {@link WithTestCluster#namespacePerClass()} creates one per test class before
 * its first test, injects it as a {@code TestNamespace} parameter, and deletes it after the class; in a
 * {@code @SpringBootTest}, {@code @KubeEventsTestCluster(namespacePerClass = true)} (event-recorder-spring-boot-starter-test)
 * puts its name in the application's environment and the namespace in its context. {@link #create} makes one by hand.
 *
 * <p>Name: the hint in lower-case DNS-label form (camel case split by dashes, other characters dropped, at most 40
 * characters), a dash, and 5 random lower-case letters and digits, e.g. {@code widget-service-it-k3x9q}. It carries
 * label {@value #LABEL}{@code =true}, so that leftovers can be found.
 *
 * <p>Deleting a namespace on {@link LocalControlPlane} leaves it {@code Terminating} for good (no controller finalizes
 * it, see {@link KubernetesTestCluster.Capability#NAMESPACES_STAY_TERMINATING}): nothing can be created in it any
 * more, and what it held stays readable.
 *
 * <p>Thread-safe.
 */
public final class TestNamespace implements AutoCloseable {

	/** The label every test namespace carries (value {@code true}). */
	public static final String LABEL = "kubeevents.io/test-namespace";

	private static final int HINT_LENGTH = 40;

	private static final String SUFFIX_CHARACTERS = "abcdefghijklmnopqrstuvwxyz0123456789";

	private static final SecureRandom random = new SecureRandom();

	private static final Logger logger = LoggerFactory.getLogger(TestNamespace.class);

	private final KubernetesTestCluster cluster;

	private final String name;

	private volatile boolean closed;

	private TestNamespace(KubernetesTestCluster cluster, String name) {
		this.cluster = cluster;
		this.name = name;
	}

	/**
	 * Creates a new namespace with the cluster's admin identity.
	 * @param cluster the cluster
	 * @param hint the start of its name, e.g. the test class's simple name
	 * @return the namespace; the caller must {@link #close()} it
	 * @throws IllegalStateException when the API server refuses
	 */
	public static TestNamespace create(KubernetesTestCluster cluster, String hint) {
		Objects.requireNonNull(cluster, "cluster");
		String name = name(Objects.requireNonNull(hint, "hint"));
		try {
			new CoreV1Api(cluster.adminClient())
				.createNamespace(new V1Namespace().metadata(new V1ObjectMeta().name(name).putLabelsItem(LABEL, "true")))
				.execute();
		}
		catch (ApiException ex) {
			throw new IllegalStateException("could not create test namespace " + name + ": HTTP " + ex.getCode() + " "
					+ ex.getResponseBody(), ex);
		}
		return new TestNamespace(cluster, name);
	}

	/**
	 * The namespace's name.
	 * @return e.g. {@code widget-service-it-k3x9q}
	 */
	public String name() {
		return this.name;
	}

	/**
	 * The cluster it is on.
	 * @return the cluster
	 */
	public KubernetesTestCluster cluster() {
		return this.cluster;
	}

	/**
	 * Deletes the namespace (with everything in it) unless already done. Does nothing when the cluster's API server
	 * is no longer running (its cluster was closed first); a namespace already gone is fine.
	 * @throws IllegalStateException when the API server refuses the deletion
	 */
	@Override
	public void close() {
		if (this.closed) {
			return;
		}
		this.closed = true;
		if (!this.cluster.isApiServerRunning()) {
			logger.debug("Not deleting test namespace {}: its cluster is stopped", this.name);
			return;
		}
		try {
			new CoreV1Api(this.cluster.adminClient()).deleteNamespace(this.name).execute();
		}
		catch (ApiException ex) {
			if (ex.getCode() != 404) {
				throw new IllegalStateException("could not delete test namespace " + this.name + ": HTTP " + ex.getCode()
						+ " " + ex.getResponseBody(), ex);
			}
		}
	}

	/**
	 * The name.
	 * @return {@link #name()}
	 */
	@Override
	public String toString() {
		return this.name;
	}

	/** The hint as a DNS label (at most {@value #HINT_LENGTH} characters), a dash and 5 random characters. */
	static String name(String hint) {
		String kebab = hint.replaceAll("([a-z0-9])([A-Z])", "$1-$2")
			.replaceAll("([A-Z]+)([A-Z][a-z])", "$1-$2")
			.toLowerCase(Locale.ROOT)
			.replaceAll("[^a-z0-9]+", "-");
		kebab = kebab.substring(0, Math.min(kebab.length(), HINT_LENGTH)).replaceAll("^-+|-+$", "");
		StringBuilder name = new StringBuilder(kebab.isEmpty() ? "test" : kebab).append('-');
		for (int i = 0; i < 5; i++) {
			name.append(SUFFIX_CHARACTERS.charAt(random.nextInt(SUFFIX_CHARACTERS.length())));
		}
		return name.toString();
	}

}
