package io.github.kubeevents.test.cluster;

import java.util.List;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.apis.RbacAuthorizationV1Api;
import io.kubernetes.client.openapi.models.RbacV1Subject;
import io.kubernetes.client.openapi.models.V1ClusterRole;
import io.kubernetes.client.openapi.models.V1ClusterRoleBinding;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1PolicyRule;
import io.kubernetes.client.openapi.models.V1RoleRef;

/**
 * The RBAC objects behind {@link KubernetesTestCluster.Identity#RESTRICTED}, the same on every backend: one
 * ClusterRole allowing get/list/watch of Events (core and {@code events.k8s.io}) and Nodes, bound to the restricted
 * subject (a static-token User locally, a ServiceAccount on K3s). Stateless.
 */
final class RestrictedAccess {

	/** Name of the ClusterRole (and of the static-token user's ClusterRoleBinding). */
	static final String ROLE = "kubeevents-test-restricted";

	private static final String RBAC_GROUP = "rbac.authorization.k8s.io";

	private RestrictedAccess() {
	}

	/**
	 * The ClusterRole.
	 * @return a new object
	 */
	static V1ClusterRole clusterRole() {
		return new V1ClusterRole().metadata(new V1ObjectMeta().name(ROLE))
			.rules(List.of(
					new V1PolicyRule().apiGroups(List.of("", "events.k8s.io"))
						.resources(List.of("events"))
						.verbs(List.of("get", "list", "watch")),
					new V1PolicyRule().apiGroups(List.of(""))
						.resources(List.of("nodes"))
						.verbs(List.of("get", "list", "watch"))));
	}

	/**
	 * A ClusterRoleBinding of a ClusterRole to one subject.
	 * @param name the binding's name
	 * @param clusterRole the role's name
	 * @param subject who gets it
	 * @return a new object
	 */
	static V1ClusterRoleBinding binding(String name, String clusterRole, RbacV1Subject subject) {
		return new V1ClusterRoleBinding().metadata(new V1ObjectMeta().name(name))
			.roleRef(new V1RoleRef().apiGroup(RBAC_GROUP).kind("ClusterRole").name(clusterRole))
			.subjects(List.of(subject));
	}

	/**
	 * A User subject (static-token users).
	 * @param name user name
	 * @return the subject
	 */
	static RbacV1Subject user(String name) {
		return new RbacV1Subject().apiGroup(RBAC_GROUP).kind("User").name(name);
	}

	/**
	 * A ServiceAccount subject.
	 * @param namespace its namespace
	 * @param name its name
	 * @return the subject
	 */
	static RbacV1Subject serviceAccount(String namespace, String name) {
		return new RbacV1Subject().kind("ServiceAccount").namespace(namespace).name(name);
	}

	/**
	 * Creates the ClusterRole and a binding of it; an existing object of the same name is kept.
	 * @param admin an admin client
	 * @param binding a binding of {@link #ROLE} (one per subject, each with its own name)
	 * @throws IllegalStateException when the server refuses
	 */
	static void grant(ApiClient admin, V1ClusterRoleBinding binding) {
		RbacAuthorizationV1Api rbac = new RbacAuthorizationV1Api(admin);
		try {
			createIfAbsent(() -> rbac.createClusterRole(clusterRole()).execute());
			createIfAbsent(() -> rbac.createClusterRoleBinding(binding).execute());
		}
		catch (ApiException ex) {
			throw new IllegalStateException("could not create the RBAC objects for the restricted identity: "
					+ ex.getCode() + " " + ex.getResponseBody(), ex);
		}
	}

	/**
	 * Waits until the restricted identity may list Events (the RBAC authorizer reads through an informer, so a new
	 * binding takes a moment).
	 * @param restricted a client of the restricted identity
	 * @param deadline from {@link Waits#deadline}
	 */
	static void awaitEffective(ApiClient restricted, long deadline) {
		CoreV1Api api = new CoreV1Api(restricted);
		String last;
		while (true) {
			try {
				api.listNamespacedEvent("default").limit(1).execute();
				return;
			}
			catch (ApiException ex) {
				last = ex.getCode() + " " + ex.getResponseBody();
			}
			Waits.pause(deadline, "the restricted identity to be allowed to list events (last: " + last + ")");
		}
	}

	/** A create call. */
	@FunctionalInterface
	interface Create {

		void run() throws ApiException;

	}

	/**
	 * Runs a create call; 409 AlreadyExists counts as success.
	 * @param create the call
	 * @throws ApiException any other failure
	 */
	static void createIfAbsent(Create create) throws ApiException {
		try {
			create.run();
		}
		catch (ApiException ex) {
			if (ex.getCode() != 409) {
				throw ex;
			}
		}
	}

}
