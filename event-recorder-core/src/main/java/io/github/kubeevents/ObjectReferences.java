package io.github.kubeevents;

import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1ObjectReference;

/**
 * Builds the {@code involvedObject} reference of an event, like client-go's {@code reference.GetReference}:
 * kind, apiVersion, name, namespace, uid and resourceVersion.
 *
 * <p>Objects listed by informers or list calls often lack kind and apiVersion (kubernetes-client/java#4006).
 * They are then resolved from the model class: first from {@link #register(Class, String, String)}, then, for the
 * generated built-in models ({@code V1Pod}, {@code V1Deployment}, {@code V2HorizontalPodAutoscaler},
 * {@code CoreV1Event}, ...), from the version in the class name and a table of built-in kinds and their API
 * groups. client-java's {@code ModelMapper} is not used: its pre-built table has an empty group for every class
 * (a Deployment would become {@code apiVersion: v1}) and it scans the whole model jar on first use.
 *
 * <p>Thread-safe.
 */
public final class ObjectReferences {

	private static final Pattern MODEL_CLASS = Pattern
		.compile("^(Core|Events|Discovery|Storage|Resource|Flowcontrol|Networking)?(V\\d+(?:alpha\\d+|beta\\d+)?)([A-Z][A-Za-z0-9]*)$");

	private static final Map<String, String> GROUP_BY_PREFIX = Map.of("Core", "", "Events", "events.k8s.io",
			"Discovery", "discovery.k8s.io", "Storage", "storage.k8s.io", "Resource", "resource.k8s.io",
			"Flowcontrol", "flowcontrol.apiserver.k8s.io", "Networking", "networking.k8s.io");

	private static final Map<String, String> GROUP_BY_KIND = groupsByKind();

	private static final Map<Class<?>, TypeInfo> REGISTERED = new ConcurrentHashMap<>();

	private static final ClassValue<TypeInfo> BUILT_IN = new ClassValue<>() {
		@Override
		protected TypeInfo computeValue(Class<?> type) {
			Matcher matcher = MODEL_CLASS.matcher(type.getSimpleName());
			if (!matcher.matches() || !type.getPackageName().equals("io.kubernetes.client.openapi.models")) {
				return null;
			}
			String kind = matcher.group(3);
			String group = (matcher.group(1) != null) ? GROUP_BY_PREFIX.get(matcher.group(1)) : GROUP_BY_KIND.get(kind);
			if (group == null) {
				return null;
			}
			String version = Character.toLowerCase(matcher.group(2).charAt(0)) + matcher.group(2).substring(1);
			return new TypeInfo(group.isEmpty() ? version : group + "/" + version, kind);
		}
	};

	private ObjectReferences() {
	}

	/**
	 * Registers the apiVersion and kind of a model class, for custom resources whose objects arrive without them.
	 * @param type the model class
	 * @param apiVersion e.g. {@code example.com/v1}
	 * @param kind e.g. {@code Widget}
	 */
	public static void register(Class<? extends KubernetesObject> type, String apiVersion, String kind) {
		REGISTERED.put(Objects.requireNonNull(type, "type"),
				new TypeInfo(Objects.requireNonNull(apiVersion, "apiVersion"), Objects.requireNonNull(kind, "kind")));
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
			if (isEmpty(ref.getName())) {
				throw new IllegalArgumentException("object reference has no name (kind " + ref.getKind()
						+ ", namespace '" + ref.getNamespace() + "')");
			}
			return Events.copy(ref);
		}
		if (!(object instanceof KubernetesObject kubernetesObject)) {
			throw new IllegalArgumentException("involved object must be a KubernetesObject or V1ObjectReference, was "
					+ object.getClass().getName());
		}
		V1ObjectMeta meta = kubernetesObject.getMetadata();
		if (meta == null || isEmpty(meta.getName())) {
			throw new IllegalArgumentException(
					"involved object has no metadata.name: " + object.getClass().getSimpleName());
		}
		String kind = kubernetesObject.getKind();
		String apiVersion = kubernetesObject.getApiVersion();
		if (isEmpty(kind) || isEmpty(apiVersion)) {
			TypeInfo type = REGISTERED.get(object.getClass());
			if (type == null) {
				type = BUILT_IN.get(object.getClass());
			}
			if (type == null) {
				throw new IllegalArgumentException("no kind is registered for " + object.getClass().getName()
						+ " and the object has no kind/apiVersion; set them, or call ObjectReferences.register");
			}
			kind = isEmpty(kind) ? type.kind() : kind;
			apiVersion = isEmpty(apiVersion) ? type.apiVersion() : apiVersion;
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

	private static Map<String, String> groupsByKind() {
		Map<String, String> groups = new HashMap<>();
		put(groups, "", "Pod", "Node", "Namespace", "Service", "Endpoints", "ConfigMap", "Secret", "PersistentVolume",
				"PersistentVolumeClaim", "ServiceAccount", "ReplicationController", "LimitRange", "ResourceQuota",
				"PodTemplate", "Binding", "ComponentStatus");
		put(groups, "apps", "Deployment", "StatefulSet", "DaemonSet", "ReplicaSet", "ControllerRevision");
		put(groups, "batch", "Job", "CronJob");
		put(groups, "autoscaling", "HorizontalPodAutoscaler");
		put(groups, "networking.k8s.io", "Ingress", "IngressClass", "NetworkPolicy", "IPAddress", "ServiceCIDR");
		put(groups, "policy", "PodDisruptionBudget", "Eviction");
		put(groups, "rbac.authorization.k8s.io", "Role", "ClusterRole", "RoleBinding", "ClusterRoleBinding");
		put(groups, "storage.k8s.io", "StorageClass", "CSIDriver", "CSINode", "VolumeAttachment", "CSIStorageCapacity",
				"VolumeAttributesClass");
		put(groups, "apiextensions.k8s.io", "CustomResourceDefinition");
		put(groups, "admissionregistration.k8s.io", "ValidatingWebhookConfiguration", "MutatingWebhookConfiguration",
				"ValidatingAdmissionPolicy", "ValidatingAdmissionPolicyBinding", "MutatingAdmissionPolicy",
				"MutatingAdmissionPolicyBinding");
		put(groups, "certificates.k8s.io", "CertificateSigningRequest", "ClusterTrustBundle");
		put(groups, "coordination.k8s.io", "Lease", "LeaseCandidate");
		put(groups, "scheduling.k8s.io", "PriorityClass");
		put(groups, "discovery.k8s.io", "EndpointSlice");
		put(groups, "node.k8s.io", "RuntimeClass");
		put(groups, "apiregistration.k8s.io", "APIService");
		put(groups, "resource.k8s.io", "ResourceClaim", "ResourceClaimTemplate", "DeviceClass", "ResourceSlice");
		return Map.copyOf(groups);
	}

	private static void put(Map<String, String> groups, String group, String... kinds) {
		for (String kind : kinds) {
			groups.put(kind, group);
		}
	}

	private record TypeInfo(String apiVersion, String kind) {
	}

}
