package io.github.kubeevents;

import java.util.Objects;

import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1ObjectReference;
import org.jspecify.annotations.Nullable;

/**
 * The object an event is about (core/v1 {@code involvedObject}, events.k8s.io/v1 {@code regarding} and
 * {@code related}): client-go's {@code ObjectReference}, as a value of our own so that the recorder API does not
 * depend on one Kubernetes client.
 *
 * <p>Empty strings are stored as {@code null}, so two references to the same object compare equal whichever way
 * they were built. Only {@code name} is required: like client-go, a reference without kind or apiVersion is
 * used as given.
 *
 * <p>Build one with {@link #of(KubernetesObject)} (kind and apiVersion resolved from the model class when the
 * object lacks them), {@link #of(V1ObjectReference)}, {@link #of(String, String, String, String)}, or an
 * {@link Adapter} for other clients' objects.
 *
 * <p>Immutable and thread-safe.
 *
 * @param kind e.g. {@code Pod}
 * @param apiVersion e.g. {@code v1} or {@code apps/v1}
 * @param namespace the object's namespace; {@code null} for cluster-scoped objects
 * @param name the object's name; required
 * @param uid the object's uid
 * @param resourceVersion the object's resourceVersion when the event was recorded
 * @param fieldPath a part of the object, e.g. {@code spec.containers{web}} (client-go's
 * {@code GetPartialReference})
 */
public record InvolvedObject(@Nullable String kind, @Nullable String apiVersion, @Nullable String namespace,
		String name, @Nullable String uid, @Nullable String resourceVersion, @Nullable String fieldPath) {

	/**
	 * Normalises empty strings to {@code null} and checks the name.
	 * @throws IllegalArgumentException when {@code name} is {@code null} or empty
	 */
	public InvolvedObject {
		if (name == null || name.isEmpty()) {
			throw new IllegalArgumentException("involved object has no name (kind " + kind + ", namespace '"
					+ ((namespace != null) ? namespace : "") + "')");
		}
		kind = emptyToNull(kind);
		apiVersion = emptyToNull(apiVersion);
		namespace = emptyToNull(namespace);
		uid = emptyToNull(uid);
		resourceVersion = emptyToNull(resourceVersion);
		fieldPath = emptyToNull(fieldPath);
	}

	/**
	 * A reference by kind, apiVersion, namespace and name.
	 * @param kind e.g. {@code Pod}
	 * @param apiVersion e.g. {@code v1}
	 * @param namespace the namespace, {@code null} or empty for cluster-scoped objects
	 * @param name the name
	 * @return the reference
	 * @throws IllegalArgumentException when {@code name} is empty
	 */
	public static InvolvedObject of(@Nullable String kind, @Nullable String apiVersion, @Nullable String namespace,
			String name) {
		return new InvolvedObject(kind, apiVersion, namespace, name, null, null, null);
	}

	/**
	 * The reference of an object of the official Java client, like client-go's {@code reference.GetReference}:
	 * kind, apiVersion, namespace, name, uid and resourceVersion. Objects listed by informers or list calls often
	 * lack kind and apiVersion; they are then taken from the deprecated {@link #registerKind(Class, String, String)}
	 * (a recorder also asks its broadcaster's {@link EventBroadcaster.Builder#registerKind} first), else, for
	 * the client's generated built-in models ({@code V1Pod}, {@code V1Deployment}, {@code CoreV1Event}, ...), from
	 * the version in the class name and a table of built-in kinds and their API groups.
	 * @param object the object
	 * @return the reference
	 * @throws IllegalArgumentException when the object is {@code null}, has no {@code metadata.name}, or has no
	 * kind/apiVersion and none is known for its class
	 */
	public static InvolvedObject of(KubernetesObject object) {
		return of(object, KindResolver::resolve);
	}

	/** {@link #of(KubernetesObject)} with the kinds of {@code resolver} for objects without kind/apiVersion. */
	static InvolvedObject of(KubernetesObject object,
			java.util.function.Function<Class<?>, KindResolver.@Nullable TypeInfo> resolver) {
		if (object == null) {
			throw new IllegalArgumentException("involved object is null");
		}
		V1ObjectMeta meta = object.getMetadata();
		if (meta == null || meta.getName() == null || meta.getName().isEmpty()) {
			throw new IllegalArgumentException(
					"involved object has no metadata.name: " + object.getClass().getSimpleName());
		}
		String kind = object.getKind();
		String apiVersion = object.getApiVersion();
		if (kind == null || kind.isEmpty() || apiVersion == null || apiVersion.isEmpty()) {
			KindResolver.TypeInfo type = resolver.apply(object.getClass());
			if (type == null) {
				throw new IllegalArgumentException("no kind is registered for " + object.getClass().getName()
						+ " and the object has no kind/apiVersion; set them, or call InvolvedObject.registerKind");
			}
			kind = (kind == null || kind.isEmpty()) ? type.kind() : kind;
			apiVersion = (apiVersion == null || apiVersion.isEmpty()) ? type.apiVersion() : apiVersion;
		}
		return new InvolvedObject(kind, apiVersion, meta.getNamespace(), meta.getName(), meta.getUid(),
				meta.getResourceVersion(), null);
	}

	/**
	 * A reference of the official Java client, used as given.
	 * @param reference the reference
	 * @return the value
	 * @throws IllegalArgumentException when the reference is {@code null} or has no name
	 */
	public static InvolvedObject of(V1ObjectReference reference) {
		if (reference == null) {
			throw new IllegalArgumentException("involved object reference is null");
		}
		return new InvolvedObject(reference.getKind(), reference.getApiVersion(), reference.getNamespace(),
				reference.getName(), reference.getUid(), reference.getResourceVersion(), reference.getFieldPath());
	}

	/**
	 * The reference of any object the recorder accepts: an {@code InvolvedObject} as it is, an object of the official
	 * Java client ({@link #of(KubernetesObject)}) or a {@link V1ObjectReference} ({@link #of(V1ObjectReference)}).
	 * Objects of other clients need an {@link Adapter}; for a fabric8 object the exception names
	 * {@code Fabric8Objects.ADAPTER} of {@code event-recorder-fabric8}.
	 * @param object the object
	 * @return the reference
	 * @throws IllegalArgumentException when the object is {@code null}, of another type, or cannot be referenced
	 */
	public static InvolvedObject from(Object object) {
		if (object instanceof InvolvedObject reference) {
			return reference;
		}
		if (object instanceof KubernetesObject kubernetesObject) {
			return of(kubernetesObject);
		}
		if (object instanceof V1ObjectReference reference) {
			return of(reference);
		}
		if (object == null) {
			throw new IllegalArgumentException("involved object is null");
		}
		if (Fabric8Hint.isFabric8(object.getClass())) {
			throw new IllegalArgumentException("cannot reference an object of type " + object.getClass().getName()
					+ ", a fabric8 object: " + Fabric8Hint.fix());
		}
		throw new IllegalArgumentException("cannot reference an object of type " + object.getClass().getName()
				+ ": pass an InvolvedObject, an object of the official Java client (KubernetesObject) or a "
				+ "V1ObjectReference, or record with recorder.about(object, adapter)");
	}

	/**
	 * How a log line names an object that may not be referenceable: {@code "ns/name" kind="Pod"} when it can be
	 * referenced, else its class name.
	 */
	static String describe(@Nullable Object object) {
		if (object == null) {
			return "null";
		}
		try {
			InvolvedObject reference = from(object);
			return LogText.quoted(reference.displayName()) + " kind=" + LogText.quoted(String.valueOf(reference.kind()));
		}
		catch (Throwable ex) {
			Throwables.rethrowIfFatal(ex);
			return LogText.oneLine(object.getClass().getName());
		}
	}

	/**
	 * Registers the apiVersion and kind of a model class, for custom resources whose objects arrive without them
	 * (used by {@link #of(KubernetesObject)}). A later registration of the same class replaces the earlier one.
	 * Thread-safe; registrations are global to the class loader of this library.
	 * @param type the model class
	 * @param apiVersion e.g. {@code example.com/v1}
	 * @param kind e.g. {@code Widget}
	 * @deprecated a registry global to the class loader lets one component's registration change another's events
	 * (and tests leak into each other); register kinds on the broadcaster instead, as client-go passes a
	 * {@code runtime.Scheme} to its recorder: {@link EventBroadcaster.Builder#registerKind(Class, String, String)}.
	 * Still honoured, after the broadcaster's kinds.
	 */
	@Deprecated(since = "0.1.0")
	public static void registerKind(Class<? extends KubernetesObject> type, String apiVersion, String kind) {
		KindResolver.register(Objects.requireNonNull(type, "type"), Objects.requireNonNull(apiVersion, "apiVersion"),
				Objects.requireNonNull(kind, "kind"));
	}

	/**
	 * This reference pointing at a part of the object (client-go's {@code GetPartialReference}).
	 * @param fieldPath e.g. {@code spec.containers{web}}
	 * @return a copy with the field path
	 */
	public InvolvedObject withFieldPath(@Nullable String fieldPath) {
		return new InvolvedObject(this.kind, this.apiVersion, this.namespace, this.name, this.uid,
				this.resourceVersion, fieldPath);
	}

	/**
	 * This reference with a uid.
	 * @param uid the object's uid
	 * @return a copy with the uid
	 */
	public InvolvedObject withUid(@Nullable String uid) {
		return new InvolvedObject(this.kind, this.apiVersion, this.namespace, this.name, uid, this.resourceVersion,
				this.fieldPath);
	}

	/**
	 * This reference with a resourceVersion.
	 * @param resourceVersion the object's resourceVersion
	 * @return a copy with the resourceVersion
	 */
	public InvolvedObject withResourceVersion(@Nullable String resourceVersion) {
		return new InvolvedObject(this.kind, this.apiVersion, this.namespace, this.name, this.uid, resourceVersion,
				this.fieldPath);
	}

	/**
	 * The reference as the official Java client's model (a new instance each call).
	 * @return the reference
	 */
	public V1ObjectReference toV1ObjectReference() {
		return new V1ObjectReference().kind(this.kind)
			.apiVersion(this.apiVersion)
			.namespace(this.namespace)
			.name(this.name)
			.uid(this.uid)
			.resourceVersion(this.resourceVersion)
			.fieldPath(this.fieldPath);
	}

	/**
	 * {@code namespace/name}, or {@code name} for a cluster-scoped object, as in client-go's structured log lines.
	 * @return the display key
	 */
	public String displayName() {
		return (this.namespace != null) ? this.namespace + "/" + this.name : this.name;
	}

	private static @Nullable String emptyToNull(@Nullable String value) {
		return (value == null || value.isEmpty()) ? null : value;
	}

	/**
	 * Turns an object of some Kubernetes client into an {@link InvolvedObject}, so a recorder can take it without
	 * that client's types appearing in the recorder API. For example, for fabric8's {@code HasMetadata}:
	 * <pre>{@code
	 * InvolvedObject.Adapter<HasMetadata> fabric8 = (o) -> new InvolvedObject(o.getKind(), o.getApiVersion(),
	 *         o.getMetadata().getNamespace(), o.getMetadata().getName(), o.getMetadata().getUid(),
	 *         o.getMetadata().getResourceVersion(), null);
	 * recorder.about(pod, fabric8).warning("FailedCreate", "Error creating: %s", err);
	 * }</pre>
	 * The recorder calls the adapter when it records; an exception thrown by it is not passed to the caller but
	 * logged and counted as an {@code invalid_input} drop. Objects of the official Java client, {@link InvolvedObject}s
	 * and {@code V1ObjectReference}s need no adapter ({@link #from(Object)}).
	 *
	 * <p>Implementations should be stateless and thread-safe.
	 *
	 * @param <T> the type of object adapted
	 */
	@FunctionalInterface
	public interface Adapter<T> {

		/**
		 * The reference of {@code object}.
		 * @param object the object
		 * @return its reference
		 * @throws IllegalArgumentException (or any runtime exception) when the object cannot be referenced, e.g. it has
		 * no name
		 */
		InvolvedObject adapt(T object);

	}

}
