package io.github.kubeevents.sample;

import java.util.Locale;
import java.util.Set;

import io.github.kubeevents.InvolvedObject;

/**
 * The body of {@code POST /events}: the object the event is about, and the event.
 *
 * <p>Immutable and thread-safe.
 *
 * @param kind the object's kind, e.g. {@code Pod}; required
 * @param apiVersion the object's API version, e.g. {@code v1}
 * @param namespace the object's namespace; ignored for cluster-scoped kinds (Node, Namespace, ...), and
 * {@code default} when absent for the others
 * @param name the object's name; required
 * @param uid the object's UID
 * @param type {@code Normal} or {@code Warning}; {@code Normal} when absent
 * @param reason the reason, e.g. {@code Started}; required
 * @param action what the reporter did, e.g. {@code Starting} (events.k8s.io/v1; the reason when absent)
 * @param message the message
 */
public record EventRequest(String kind, String apiVersion, String namespace, String name, String uid, String type,
		String reason, String action, String message) {

	/** Built-in kinds without a namespace: their Events go to {@code default}, their reference has none. */
	static final Set<String> CLUSTER_SCOPED = Set.of("node", "namespace", "persistentvolume", "storageclass",
			"clusterrole", "clusterrolebinding", "customresourcedefinition", "priorityclass", "ingressclass",
			"runtimeclass", "csidriver", "csinode", "volumeattachment", "certificatesigningrequest", "ipaddress",
			"servicecidr", "validatingwebhookconfiguration", "mutatingwebhookconfiguration", "apiservice");

	/**
	 * The object the event is about. A cluster-scoped object keeps an empty namespace (its Event goes to
	 * {@code default}, so {@code kubectl describe node} finds it).
	 * @return the reference
	 */
	public InvolvedObject toInvolvedObject() {
		return new InvolvedObject(this.kind, this.apiVersion, objectNamespace(), this.name, this.uid, null, null);
	}

	/**
	 * The namespace of the object: none for cluster-scoped kinds, else the given one or {@code default}.
	 * @return the namespace, or {@code null}
	 */
	public String objectNamespace() {
		if (this.kind != null && CLUSTER_SCOPED.contains(this.kind.toLowerCase(Locale.ROOT))) {
			return null;
		}
		return (this.namespace != null && !this.namespace.isBlank()) ? this.namespace : "default";
	}

}
