package io.github.kubeevents.test.cluster;

import java.util.Collections;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;

import io.github.kubeevents.test.cluster.KubernetesTestCluster.Capability;

/**
 * The kinds of {@link KubernetesTestCluster}: {@link #LOCAL} processes, {@link #K3S} in a container, or
 * {@link #AUTO}, a request to pick one of them.
 *
 * <p>Immutable and thread-safe.
 */
public enum TestClusterBackend {

	/**
	 * Not a backend but a request: the system property {@value #SYSTEM_PROPERTY} if set, else {@link #LOCAL} when its
	 * binaries are found, else {@link #K3S} when Testcontainers is on the classpath and a Docker engine answers.
	 * Supports no capability of its own.
	 */
	AUTO(EnumSet.noneOf(Capability.class)),

	/**
	 * {@link LocalControlPlane}: etcd and kube-apiserver as local processes (no kubelet, no controllers). Supports
	 * every {@link Capability}.
	 */
	LOCAL(EnumSet.allOf(Capability.class)),

	/**
	 * {@link K3sTestCluster}: K3s in a Testcontainers container (a complete single-node cluster with controllers).
	 * Supports {@link Capability#FREEZE_API_SERVER} only.
	 */
	K3S(EnumSet.of(Capability.FREEZE_API_SERVER));

	/**
	 * System property choosing the backend for test classes that ask for {@link #AUTO}: {@code local}, {@code k3s} or
	 * {@code auto} (case-insensitive).
	 */
	public static final String SYSTEM_PROPERTY = "kubeevents.test.cluster";

	private final Set<Capability> capabilities;

	TestClusterBackend(EnumSet<Capability> capabilities) {
		this.capabilities = Collections.unmodifiableSet(capabilities);
	}

	/**
	 * What clusters of this backend can do.
	 * @return an unmodifiable set (empty for {@link #AUTO})
	 */
	public Set<Capability> capabilities() {
		return this.capabilities;
	}

	/**
	 * Parses a value of {@value #SYSTEM_PROPERTY}.
	 * @param value {@code local}, {@code k3s} or {@code auto}, any case, surrounding blanks ignored; {@code null} or
	 * blank means {@link #AUTO}
	 * @return the backend
	 * @throws IllegalArgumentException for any other value (the message lists the valid ones)
	 */
	public static TestClusterBackend parse(String value) {
		if (value == null || value.isBlank()) {
			return AUTO;
		}
		String v = value.strip().toLowerCase(Locale.ROOT);
		for (TestClusterBackend backend : values()) {
			if (backend.name().toLowerCase(Locale.ROOT).equals(v)) {
				return backend;
			}
		}
		throw new IllegalArgumentException(
				SYSTEM_PROPERTY + " must be one of local, k3s, auto; was '" + value + "'");
	}

	/**
	 * The lower-case name, as accepted by {@link #parse(String)}.
	 * @return {@code auto}, {@code local} or {@code k3s}
	 */
	@Override
	public String toString() {
		return name().toLowerCase(Locale.ROOT);
	}

}
