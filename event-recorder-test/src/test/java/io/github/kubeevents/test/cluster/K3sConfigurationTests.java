package io.github.kubeevents.test.cluster;

import java.time.Duration;
import java.util.List;

import io.kubernetes.client.openapi.models.AuthenticationV1TokenRequest;
import io.kubernetes.client.openapi.models.RbacV1Subject;
import io.kubernetes.client.openapi.models.V1ClusterRole;
import io.kubernetes.client.openapi.models.V1ClusterRoleBinding;
import io.kubernetes.client.openapi.models.V1PolicyRule;
import io.kubernetes.client.openapi.models.V1RoleRef;
import io.kubernetes.client.openapi.models.V1ServiceAccount;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.ResourceLock;
import org.junit.jupiter.api.parallel.Resources;
import org.testcontainers.utility.DockerImageName;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Everything about the K3s backend that can be checked without a Docker engine: the image, the {@code k3s server}
 * arguments, and the ServiceAccount / RBAC / TokenRequest objects it creates. (Those objects are also created for
 * real against a local kube-apiserver in {@code LocalControlPlaneIT}.)
 */
class K3sConfigurationTests {

	@Test
	void defaultImageIsK3sForTheSameKubernetesVersionAsTheLocalBinaries() {
		DockerImageName image = DockerImageName.parse(K3sTestCluster.builder().resolvedImage());

		assertThat(image.getRepository()).isEqualTo("rancher/k3s");
		assertThat(image.getVersionPart()).isEqualTo("v1.35.4-k3s1");
		// K3sContainer refuses anything that is not rancher/k3s
		image.assertCompatibleWith(DockerImageName.parse("rancher/k3s"));
	}

	@Test
	@ResourceLock(Resources.SYSTEM_PROPERTIES)
	void imageComesFromTheBuilderThenTheSystemPropertyThenTheDefault() {
		String before = System.getProperty(K3sTestCluster.IMAGE_PROPERTY);
		try {
			System.setProperty(K3sTestCluster.IMAGE_PROPERTY, " mirror.example/rancher/k3s:v1.35.4-k3s1 ");
			assertThat(K3sTestCluster.builder().resolvedImage()).isEqualTo("mirror.example/rancher/k3s:v1.35.4-k3s1");
			assertThat(K3sTestCluster.builder().image("rancher/k3s:v1.34.6-k3s1").resolvedImage())
				.isEqualTo("rancher/k3s:v1.34.6-k3s1");
			System.clearProperty(K3sTestCluster.IMAGE_PROPERTY);
			assertThat(K3sTestCluster.builder().resolvedImage()).isEqualTo(K3sTestCluster.DEFAULT_IMAGE);
		}
		finally {
			if (before == null) {
				System.clearProperty(K3sTestCluster.IMAGE_PROPERTY);
			}
			else {
				System.setProperty(K3sTestCluster.IMAGE_PROPERTY, before);
			}
		}
	}

	@Test
	void eventTtlAndApiServerFlagsBecomeKubeApiserverArgs() {
		List<String> args = K3sTestCluster.builder()
			.eventTtl(Duration.ofSeconds(5))
			.apiServerArg("--max-requests-inflight=10")
			.apiServerArg("audit-log-maxage=1")
			.serverArg("--disable=metrics-server")
			.serverArgs();

		assertThat(args).containsExactly("--kube-apiserver-arg=event-ttl=5s",
				"--kube-apiserver-arg=max-requests-inflight=10", "--kube-apiserver-arg=audit-log-maxage=1",
				"--disable=metrics-server");
	}

	@Test
	void defaultTtlIsTheApiServersDefaultSpelledOut() {
		assertThat(K3sTestCluster.builder().serverArgs()).containsExactly("--kube-apiserver-arg=event-ttl=3600s");
		assertThat(K3sTestCluster.builder().eventTtl(Duration.ofMillis(1500)).serverArgs())
			.containsExactly("--kube-apiserver-arg=event-ttl=1500ms");
	}

	@Test
	void ttlMustBePositive() {
		assertThatIllegalArgumentException().isThrownBy(() -> K3sTestCluster.builder().eventTtl(Duration.ZERO));
	}

	@Test
	void restrictedRoleIsReadOnlyOnEventsAndNodes() {
		V1ClusterRole role = RestrictedAccess.clusterRole();

		assertThat(role.getMetadata().getName()).isEqualTo("kubeevents-test-restricted");
		assertThat(role.getRules()).extracting(V1PolicyRule::getApiGroups, V1PolicyRule::getResources,
				V1PolicyRule::getVerbs)
			.containsExactly(
					org.assertj.core.groups.Tuple.tuple(List.of("", "events.k8s.io"), List.of("events"),
							List.of("get", "list", "watch")),
					org.assertj.core.groups.Tuple.tuple(List.of(""), List.of("nodes"), List.of("get", "list", "watch")));
	}

	@Test
	void k3sBindsServiceAccountsEachWithItsOwnBinding() {
		V1ClusterRoleBinding restricted = ServiceAccountTokens.restrictedBinding();
		V1ClusterRoleBinding admin = ServiceAccountTokens.adminBinding();

		assertThat(restricted.getMetadata().getName()).isEqualTo("kube-events-test-restricted");
		assertThat(restricted.getRoleRef()).isEqualTo(new V1RoleRef().apiGroup("rbac.authorization.k8s.io")
			.kind("ClusterRole")
			.name("kubeevents-test-restricted"));
		assertThat(restricted.getSubjects()).containsExactly(
				new RbacV1Subject().kind("ServiceAccount").namespace("kube-system").name("kube-events-test-restricted"));
		assertThat(admin.getMetadata().getName()).isEqualTo("kube-events-test-admin");
		assertThat(admin.getRoleRef().getName()).isEqualTo("cluster-admin");
		assertThat(admin.getSubjects()).containsExactly(
				new RbacV1Subject().kind("ServiceAccount").namespace("kube-system").name("kube-events-test-admin"));
	}

	@Test
	void localBindsTheSameRoleToAStaticTokenUser() {
		V1ClusterRoleBinding local = RestrictedAccess.binding(RestrictedAccess.ROLE, RestrictedAccess.ROLE,
				RestrictedAccess.user("restricted"));

		assertThat(local.getRoleRef().getName()).isEqualTo("kubeevents-test-restricted");
		assertThat(local.getSubjects()).containsExactly(
				new RbacV1Subject().apiGroup("rbac.authorization.k8s.io").kind("User").name("restricted"));
	}

	@Test
	void serviceAccountsAndTokenRequest() {
		V1ServiceAccount sa = ServiceAccountTokens.serviceAccount(ServiceAccountTokens.RESTRICTED_ACCOUNT);
		AuthenticationV1TokenRequest request = ServiceAccountTokens.tokenRequest();

		assertThat(sa.getMetadata().getNamespace()).isEqualTo("kube-system");
		assertThat(sa.getMetadata().getName()).isEqualTo("kube-events-test-restricted");
		assertThat(request.getSpec().getExpirationSeconds()).isEqualTo(86_400L);
		assertThat(request.getSpec().getAudiences()).isNullOrEmpty();
		assertThat(ServiceAccountTokens.userName("kube-system", "kube-events-test-restricted"))
			.isEqualTo("system:serviceaccount:kube-system:kube-events-test-restricted");
	}

	@Test
	void k3sCanOnlyFreeze() {
		assertThat(TestClusterBackend.K3S.capabilities())
			.containsExactly(KubernetesTestCluster.Capability.FREEZE_API_SERVER);
	}

}
