package io.github.kubeevents.test.cluster;

import java.time.Duration;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.apis.RbacAuthorizationV1Api;
import io.kubernetes.client.openapi.models.AuthenticationV1TokenRequest;
import io.kubernetes.client.openapi.models.V1ClusterRoleBinding;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1ServiceAccount;
import io.kubernetes.client.openapi.models.V1TokenRequestSpec;

/**
 * Bearer tokens for ServiceAccounts, the way a cluster without static-token users (K3s) provides the test
 * identities: a ServiceAccount, a ClusterRoleBinding to a ClusterRole, and a TokenRequest
 * ({@code serviceaccounts/token}). Stateless.
 */
final class ServiceAccountTokens {

	/** Namespace of the test ServiceAccounts (exists in every cluster). */
	static final String NAMESPACE = "kube-system";

	/** ServiceAccount (and binding) of the admin identity. */
	static final String ADMIN_ACCOUNT = "kube-events-test-admin";

	/** ServiceAccount of the restricted identity. */
	static final String RESTRICTED_ACCOUNT = "kube-events-test-restricted";

	/** Requested token lifetime: longer than any test run. */
	static final Duration TOKEN_LIFETIME = Duration.ofHours(24);

	private ServiceAccountTokens() {
	}

	/**
	 * The user name the API server gives a ServiceAccount.
	 * @param namespace its namespace
	 * @param name its name
	 * @return {@code system:serviceaccount:<namespace>:<name>}
	 */
	static String userName(String namespace, String name) {
		return "system:serviceaccount:" + namespace + ":" + name;
	}

	/**
	 * The ServiceAccount object.
	 * @param name its name (in {@link #NAMESPACE})
	 * @return a new object
	 */
	static V1ServiceAccount serviceAccount(String name) {
		return new V1ServiceAccount().metadata(new V1ObjectMeta().name(name).namespace(NAMESPACE));
	}

	/**
	 * The TokenRequest body.
	 * @return a new object asking for {@link #TOKEN_LIFETIME}, default audience
	 */
	static AuthenticationV1TokenRequest tokenRequest() {
		return new AuthenticationV1TokenRequest()
			.spec(new V1TokenRequestSpec().expirationSeconds(TOKEN_LIFETIME.toSeconds()));
	}

	/**
	 * The binding of the admin ServiceAccount to {@code cluster-admin}.
	 * @return a new object named like the ServiceAccount
	 */
	static V1ClusterRoleBinding adminBinding() {
		return RestrictedAccess.binding(ADMIN_ACCOUNT, "cluster-admin",
				RestrictedAccess.serviceAccount(NAMESPACE, ADMIN_ACCOUNT));
	}

	/**
	 * The binding of the restricted ServiceAccount to {@link RestrictedAccess#ROLE}.
	 * @return a new object named like the ServiceAccount
	 */
	static V1ClusterRoleBinding restrictedBinding() {
		return RestrictedAccess.binding(RESTRICTED_ACCOUNT, RestrictedAccess.ROLE,
				RestrictedAccess.serviceAccount(NAMESPACE, RESTRICTED_ACCOUNT));
	}

	/**
	 * The admin identity: ServiceAccount {@value #ADMIN_ACCOUNT} bound to ClusterRole {@code cluster-admin}.
	 * @param admin an admin client
	 * @return its token
	 */
	static String provisionAdmin(ApiClient admin) {
		try {
			RestrictedAccess.createIfAbsent(
					() -> new CoreV1Api(admin).createNamespacedServiceAccount(NAMESPACE, serviceAccount(ADMIN_ACCOUNT))
						.execute());
			RestrictedAccess.createIfAbsent(
					() -> new RbacAuthorizationV1Api(admin).createClusterRoleBinding(adminBinding()).execute());
			return token(admin, ADMIN_ACCOUNT);
		}
		catch (ApiException ex) {
			throw failure(ADMIN_ACCOUNT, ex);
		}
	}

	/**
	 * The restricted identity: ServiceAccount {@value #RESTRICTED_ACCOUNT} bound to {@link RestrictedAccess#ROLE}
	 * by a ClusterRoleBinding of the same name as the ServiceAccount.
	 * @param admin an admin client
	 * @return its token
	 */
	static String provisionRestricted(ApiClient admin) {
		try {
			RestrictedAccess.createIfAbsent(() -> new CoreV1Api(admin)
				.createNamespacedServiceAccount(NAMESPACE, serviceAccount(RESTRICTED_ACCOUNT))
				.execute());
			RestrictedAccess.grant(admin, restrictedBinding());
			return token(admin, RESTRICTED_ACCOUNT);
		}
		catch (ApiException ex) {
			throw failure(RESTRICTED_ACCOUNT, ex);
		}
	}

	private static String token(ApiClient admin, String account) throws ApiException {
		AuthenticationV1TokenRequest answer = new CoreV1Api(admin)
			.createNamespacedServiceAccountToken(account, NAMESPACE, tokenRequest())
			.execute();
		if (answer.getStatus() == null || answer.getStatus().getToken() == null) {
			throw new IllegalStateException("TokenRequest for " + account + " answered without a token");
		}
		return answer.getStatus().getToken();
	}

	private static IllegalStateException failure(String account, ApiException ex) {
		return new IllegalStateException("could not provision ServiceAccount " + NAMESPACE + "/" + account + ": "
				+ ex.getCode() + " " + ex.getResponseBody(), ex);
	}

}
