package io.github.kubeevents;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

import io.kubernetes.client.common.KubernetesObject;

/**
 * The kinds registered on one broadcaster's builder ({@link EventBroadcaster.Builder#registerKind}), which its
 * recorders use to reference client-java objects that arrive without kind and apiVersion (custom resources listed by
 * informers, kubernetes-client/java#4006), like the {@code runtime.Scheme} a client-go recorder is given. A class
 * registered here wins over the deprecated global {@link InvolvedObject#registerKind} and the built-in model table,
 * which are asked next.
 *
 * <p>Immutable and thread-safe.
 */
final class RegisteredKinds {

	static final RegisteredKinds NONE = new RegisteredKinds(Map.of());

	private final Map<Class<?>, KindResolver.TypeInfo> kinds;

	private RegisteredKinds(Map<Class<?>, KindResolver.TypeInfo> kinds) {
		this.kinds = Map.copyOf(kinds);
	}

	/** A builder's registrations, later ones of a class replacing earlier ones. */
	static final class Registrations {

		private final Map<Class<?>, KindResolver.TypeInfo> kinds = new LinkedHashMap<>();

		void add(Class<? extends KubernetesObject> type, String apiVersion, String kind) {
			this.kinds.put(Objects.requireNonNull(type, "type"),
					new KindResolver.TypeInfo(requireText(apiVersion, "apiVersion"), requireText(kind, "kind")));
		}

		RegisteredKinds build() {
			return this.kinds.isEmpty() ? NONE : new RegisteredKinds(this.kinds);
		}

		private static String requireText(String value, String name) {
			if (value == null || value.isEmpty()) {
				throw new IllegalArgumentException(name + " must not be empty");
			}
			return value;
		}

	}

	boolean isEmpty() {
		return this.kinds.isEmpty();
	}

	/**
	 * The reference of an object, as {@link InvolvedObject#from(Object)} makes it, but with these kinds first.
	 * @throws IllegalArgumentException as {@link InvolvedObject#from(Object)} does
	 */
	InvolvedObject reference(Object object) {
		if (object instanceof KubernetesObject kubernetesObject && !this.kinds.isEmpty()) {
			return InvolvedObject.of(kubernetesObject, this::resolve);
		}
		return InvolvedObject.from(object);
	}

	/** The registered kind of a class, else the global registry's or the built-in one. */
	KindResolver.TypeInfo resolve(Class<?> type) {
		KindResolver.TypeInfo registered = this.kinds.get(type);
		return (registered != null) ? registered : KindResolver.resolve(type);
	}

}
