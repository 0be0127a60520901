package io.github.kubeevents.test.cluster;

import io.github.kubeevents.test.cluster.KubernetesTestCluster.Identity;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;

/**
 * The bearer tokens of a {@link K3sTestCluster}'s two identities, set up once K3s answers: after namespaces
 * {@value ServiceAccountTokens#NAMESPACE} and {@code default} exist, the admin and restricted ServiceAccounts get
 * their RBAC bindings and a TokenRequest each ({@link ServiceAccountTokens}). Immutable.
 *
 * @param adminToken token of {@value ServiceAccountTokens#ADMIN_ACCOUNT}
 * @param restrictedToken token of {@value ServiceAccountTokens#RESTRICTED_ACCOUNT}
 */
record K3sIdentities(String adminToken, String restrictedToken) {

	/**
	 * Waits for the namespaces, then provisions both identities.
	 * @param admin a client of {@code system:admin}
	 * @param deadline from {@link Waits#deadline}
	 * @return the tokens
	 * @throws IllegalStateException when a namespace does not appear in time or the server refuses
	 */
	static K3sIdentities provision(ApiClient admin, long deadline) {
		awaitNamespace(admin, ServiceAccountTokens.NAMESPACE, deadline);
		awaitNamespace(admin, "default", deadline);
		String adminToken = ServiceAccountTokens.provisionAdmin(admin);
		return new K3sIdentities(adminToken, ServiceAccountTokens.provisionRestricted(admin));
	}

	/**
	 * The token of an identity.
	 * @param identity which one
	 * @return its token
	 */
	String token(Identity identity) {
		return (identity == Identity.ADMIN) ? this.adminToken : this.restrictedToken;
	}

	private static void awaitNamespace(ApiClient admin, String name, long deadline) {
		CoreV1Api core = new CoreV1Api(admin);
		String last = "no answer";
		while (true) {
			try {
				core.readNamespace(name).execute();
				return;
			}
			catch (ApiException ex) {
				last = ex.getCode() + " " + ex.getMessage();
			}
			Waits.pause(deadline, "namespace '" + name + "' to exist (last: " + last + ")");
		}
	}

}
