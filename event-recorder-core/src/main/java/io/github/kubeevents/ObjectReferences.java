package io.github.kubeevents;

import io.kubernetes.client.apimachinery.GroupVersionKind;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1ObjectReference;
import io.kubernetes.client.util.ModelMapper;

/**
 * Builds the {@code involvedObject} reference of an event, like client-go's {@code reference.GetReference}:
 * kind, apiVersion, name, namespace, uid and resourceVersion. Objects listed by informers or list calls often
 * lack kind and apiVersion; they are then taken from the model class through {@link ModelMapper} (built-in types
 * are known; register custom resources with {@link ModelMapper#addModelMap}).
 *
 * <p>Stateless and thread-safe.
 */
public final class ObjectReferences {

	private ObjectReferences() {
	}

	/**
	 * The reference for {@code object}.
	 * @param object a {@link KubernetesObject} or a {@link V1ObjectReference} (copied as is)
	 * @return the reference
	 * @throws IllegalArgumentException naming the problem: null, unsupported type, no name, unknown kind
	 */
	public static V1ObjectReference of(Object object) {
		if (object == null) {
			throw new IllegalArgumentException("involved object is null");
		}
		if (object instanceof V1ObjectReference ref) {
			if (ref.getName() == null || ref.getName().isEmpty()) {
				throw new IllegalArgumentException("object reference has no name: " + ref.getKind() + " in namespace '"
						+ ref.getNamespace() + "'");
			}
			return Events.copy(ref);
		}
		if (!(object instanceof KubernetesObject kubernetesObject)) {
			throw new IllegalArgumentException("involved object must be a KubernetesObject or V1ObjectReference, was "
					+ object.getClass().getName());
		}
		V1ObjectMeta meta = kubernetesObject.getMetadata();
		if (meta == null || meta.getName() == null || meta.getName().isEmpty()) {
			throw new IllegalArgumentException(
					"involved object has no metadata.name: " + object.getClass().getSimpleName());
		}
		String kind = kubernetesObject.getKind();
		String apiVersion = kubernetesObject.getApiVersion();
		if (isEmpty(kind) || isEmpty(apiVersion)) {
			GroupVersionKind gvk = ModelMapper.getGroupVersionKindByClass(object.getClass());
			if (gvk == null) {
				throw new IllegalArgumentException("no kind is registered for " + object.getClass().getName()
						+ " and the object has no kind/apiVersion; set them or register the class with ModelMapper.addModelMap");
			}
			if (isEmpty(kind)) {
				kind = gvk.getKind();
			}
			if (isEmpty(apiVersion)) {
				apiVersion = isEmpty(gvk.getGroup()) ? gvk.getVersion() : gvk.getGroup() + "/" + gvk.getVersion();
			}
		}
		return new V1ObjectReference().kind(kind)
			.apiVersion(apiVersion)
			.name(meta.getName())
			.namespace(meta.getNamespace())
			.uid(meta.getUid())
			.resourceVersion(meta.getResourceVersion());
	}

	private static boolean isEmpty(String value) {
		return value == null || value.isEmpty();
	}

}
