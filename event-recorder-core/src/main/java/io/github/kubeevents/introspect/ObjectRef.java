package io.github.kubeevents.introspect;

import org.jspecify.annotations.Nullable;

/**
 * Which object a snapshot entry is about: kind, namespace and name.
 *
 * <p>Immutable and thread-safe.
 *
 * @param kind the object's kind, e.g. {@code Pod}
 * @param namespace its namespace, {@code null} for cluster-scoped objects
 * @param name its name
 */
public record ObjectRef(@Nullable String kind, @Nullable String namespace, String name) {

	/**
	 * Whether this is the object {@code namespace/name}.
	 * @param namespace the namespace, {@code null} or empty for a cluster-scoped object
	 * @param name the name
	 * @return {@code true} when both match
	 */
	public boolean is(@Nullable String namespace, String name) {
		String ns = (namespace == null || namespace.isEmpty()) ? null : namespace;
		return this.name.equals(name) && java.util.Objects.equals(this.namespace, ns);
	}

}
