package io.github.kubeevents;

import java.util.Objects;

import io.github.kubeevents.introspect.RecorderSnapshot.ObjectRef;
import io.kubernetes.client.openapi.models.CoreV1Event;
import io.kubernetes.client.openapi.models.V1ObjectReference;
import org.jspecify.annotations.Nullable;

/**
 * What a correlator cache entry is about, as its snapshot shows it: the involved object's kind, namespace and
 * name, and the event's type and reason. Only the snapshot reads it, never a decision. The correlator makes one
 * per event and shares it among the entries the event touches in its three caches, and an entry keeps the one it
 * has while the next event's subject is equal, so an object's entries usually share one subject and its strings.
 *
 * <p>Immutable and thread-safe.
 *
 * @param kind the object's kind
 * @param namespace its namespace, {@code null} for a cluster-scoped object
 * @param name its name ({@code "null"} when it had none, as {@link ObjectRef} shows it)
 * @param type the event's type
 * @param reason the event's reason
 */
record EventSubject(@Nullable String kind, @Nullable String namespace, String name, @Nullable String type,
		@Nullable String reason) {

	/** The subject of an event. */
	static EventSubject of(CoreV1Event event) {
		V1ObjectReference ref = event.getInvolvedObject();
		if (ref == null) {
			return new EventSubject(null, null, "", event.getType(), event.getReason());
		}
		String namespace = ref.getNamespace();
		return new EventSubject(ref.getKind(), (namespace == null || namespace.isEmpty()) ? null : namespace,
				String.valueOf(ref.getName()), event.getType(), event.getReason());
	}

	/** The subject of an event: {@code held}, an entry's (may be {@code null}), when it is that, else a new one. */
	static EventSubject of(CoreV1Event event, @Nullable EventSubject held) {
		return (held != null && held.describes(event)) ? held : of(event);
	}

	private boolean describes(CoreV1Event event) {
		V1ObjectReference ref = event.getInvolvedObject();
		if (ref == null) {
			return this.kind == null && this.namespace == null && this.name.isEmpty()
					&& Objects.equals(this.type, event.getType()) && Objects.equals(this.reason, event.getReason());
		}
		String namespace = ref.getNamespace();
		return Objects.equals(this.kind, ref.getKind())
				&& Objects.equals(this.namespace, (namespace == null || namespace.isEmpty()) ? null : namespace)
				&& this.name.equals(String.valueOf(ref.getName())) && Objects.equals(this.type, event.getType())
				&& Objects.equals(this.reason, event.getReason());
	}

	/** This subject, or {@code other}, an entry's (may be {@code null}), when equal: the entry keeps its instance. */
	EventSubject or(@Nullable EventSubject other) {
		return (other != null && other != this && equals(other)) ? other : this;
	}

	/** The object, as the snapshot shows it (a new reference). */
	ObjectRef object() {
		return new ObjectRef(this.kind, this.namespace, this.name);
	}

}
