package io.github.kubeevents.sample;

import io.kubernetes.client.openapi.models.V1ObjectReference;

/**
 * The body of {@code POST /events}: the involved object and the event.
 *
 * <p>Immutable and thread-safe.
 *
 * @param kind the object's kind, e.g. {@code Pod}; required
 * @param apiVersion the object's API version, e.g. {@code v1}
 * @param namespace the object's namespace; {@code default} when absent
 * @param name the object's name; required
 * @param uid the object's UID
 * @param type {@code Normal} or {@code Warning}; {@code Normal} when absent
 * @param reason the reason, e.g. {@code Started}; required
 * @param message the message
 */
public record EventRequest(String kind, String apiVersion, String namespace, String name, String uid, String type,
		String reason, String message) {

	/**
	 * The reference to the involved object.
	 * @return a new reference
	 */
	public V1ObjectReference toReference() {
		return new V1ObjectReference().kind(this.kind)
			.apiVersion(this.apiVersion)
			.namespace(namespaceOrDefault())
			.name(this.name)
			.uid(this.uid);
	}

	/**
	 * The namespace, or {@code default} when absent.
	 * @return the namespace the event is recorded in
	 */
	public String namespaceOrDefault() {
		return (this.namespace != null && !this.namespace.isBlank()) ? this.namespace : "default";
	}

}
