package io.github.kubeevents;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;

/**
 * Resolves the kind and apiVersion of a client-java model class, for objects that arrive without them (objects
 * listed by informers or list calls often lack them, kubernetes-client/java#4006): first from
 * {@link #register(Class, String, String)}, then, for the generated built-in models ({@code V1Pod},
 * {@code V1Deployment}, {@code V2HorizontalPodAutoscaler}, {@code CoreV1Event}, ...), from the version in the class
 * name and a table of built-in kinds and their API groups. client-java's {@code ModelMapper} is not used: its
 * pre-built table has an empty group for every class (a Deployment would become {@code apiVersion: v1}) and it
 * scans the whole model jar on first use.
 *
 * <p>Thread-safe. Results per class are cached ({@link ClassValue}).
 */
final class KindResolver {

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

	private KindResolver() {
	}

	static void register(Class<?> type, String apiVersion, String kind) {
		REGISTERED.put(type, new TypeInfo(apiVersion, kind));
	}

	/** The registered or built-in kind and apiVersion of the model class {@code type}, or {@code null} when unknown. */
	static @Nullable TypeInfo resolve(Class<?> type) {
		TypeInfo registered = REGISTERED.get(type);
		return (registered != null) ? registered : BUILT_IN.get(type);
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

	record TypeInfo(String apiVersion, String kind) {
	}

}
