package io.github.kubeevents.fabric8;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.github.kubeevents.InvolvedObject;

/**
 * fabric8 objects as the objects events are about: {@code recorder.about(resource, Fabric8Objects.ADAPTER)}.
 * The reference has the object's kind, apiVersion, namespace, name, uid and resourceVersion, like client-go's
 * {@code reference.GetReference} (fabric8's {@code CustomResource} and built-in models know their kind and
 * apiVersion even when the server's answer left them out).
 *
 * <p>Stateless and thread-safe.
 */
public final class Fabric8Objects {

	/** The adapter of any fabric8 {@link HasMetadata}; a resource without metadata or name cannot be referenced. */
	public static final InvolvedObject.Adapter<HasMetadata> ADAPTER = Fabric8Objects::reference;

	private Fabric8Objects() {
	}

	/**
	 * The reference of a fabric8 resource.
	 * @param resource the resource
	 * @return its reference
	 * @throws IllegalArgumentException when it has no metadata or no name
	 */
	public static InvolvedObject reference(HasMetadata resource) {
		ObjectMeta metadata = resource.getMetadata();
		if (metadata == null || metadata.getName() == null || metadata.getName().isEmpty()) {
			throw new IllegalArgumentException("a " + resource.getClass().getSimpleName() + " without metadata.name"
					+ " cannot be referenced");
		}
		return new InvolvedObject(resource.getKind(), resource.getApiVersion(), metadata.getNamespace(),
				metadata.getName(), metadata.getUid(), metadata.getResourceVersion(), null);
	}

}
