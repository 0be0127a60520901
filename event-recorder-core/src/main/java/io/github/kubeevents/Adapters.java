package io.github.kubeevents;

import io.kubernetes.client.common.KubernetesObject;

/** The built-in {@link InvolvedObjectAdapter}s, as constants (no allocation per call). */
final class Adapters {

	static final InvolvedObjectAdapter<InvolvedObject> IDENTITY = (object) -> {
		if (object == null) {
			throw new IllegalArgumentException("involved object is null");
		}
		return object;
	};

	static final InvolvedObjectAdapter<KubernetesObject> KUBERNETES_OBJECT = InvolvedObject::of;

	private Adapters() {
	}

}
