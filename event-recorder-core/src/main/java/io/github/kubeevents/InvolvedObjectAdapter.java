package io.github.kubeevents;

/**
 * Turns an object of some Kubernetes client into an {@link InvolvedObject}, so a recorder can take it without
 * that client's types appearing in the recorder API. For example, for fabric8's {@code HasMetadata}:
 * <pre>{@code
 * InvolvedObjectAdapter<HasMetadata> fabric8 = (o) -> new InvolvedObject(o.getKind(), o.getApiVersion(),
 *         o.getMetadata().getNamespace(), o.getMetadata().getName(), o.getMetadata().getUid(),
 *         o.getMetadata().getResourceVersion(), null);
 * recorder.about(pod, fabric8).warning("FailedCreate", "Error creating: %s", err);
 * }</pre>
 * The recorder calls the adapter when it records; an exception thrown by it is not passed to the caller but
 * logged and counted as an {@code invalid_input} drop. Objects of the official Java client, {@link InvolvedObject}s
 * and {@code V1ObjectReference}s need no adapter ({@link InvolvedObject#from(Object)}).
 *
 * <p>Implementations should be stateless and thread-safe.
 *
 * @param <T> the type of object adapted
 */
@FunctionalInterface
public interface InvolvedObjectAdapter<T> {

	/**
	 * The reference of {@code object}.
	 * @param object the object
	 * @return its reference
	 * @throws IllegalArgumentException (or any runtime exception) when the object cannot be referenced, e.g. it has
	 * no name
	 */
	InvolvedObject adapt(T object);

}
