package io.github.kubeevents.test.cluster;

import java.io.IOException;
import java.io.InputStream;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.util.Config;
import io.kubernetes.client.util.KubeConfig;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class KubeconfigsTests {

	@Test
	void readsServerAndCaFromAK3sShapedKubeconfig() throws IOException {
		Kubeconfigs.Connection c = Kubeconfigs.connection(resource("k3s-kubeconfig.yaml"));

		assertThat(c.server()).isEqualTo("https://localhost:32789");
		assertThat(new String(c.caPem(), StandardCharsets.US_ASCII)).isEqualTo(resource("k3s-ca.crt"));
	}

	@Test
	void clientJavaBuildsTheAdminClientFromAK3sShapedKubeconfig() throws IOException {
		// what K3sTestCluster.adminClient() does: client certificate (ECDSA, SEC1 key) and inline CA
		ApiClient client = Config.fromConfig(new StringReader(resource("k3s-kubeconfig.yaml")));

		assertThat(client.getBasePath()).isEqualTo("https://localhost:32789");
		assertThat(client.isVerifyingSsl()).isTrue();
	}

	@Test
	void rendersATokenKubeconfigThatClientJavaReadsBack() throws IOException {
		byte[] ca = resource("k3s-ca.crt").getBytes(StandardCharsets.US_ASCII);

		String yaml = Kubeconfigs.render("kube-events-test-local", "https://127.0.0.1:41234", ca, "restricted",
				"abc.def-ghi_jkl");

		KubeConfig config = KubeConfig.loadKubeConfig(new StringReader(yaml));
		assertThat(config.getCurrentContext()).isEqualTo("kube-events-test-local");
		assertThat(config.getServer()).isEqualTo("https://127.0.0.1:41234");
		assertThat(config.getNamespace()).isEqualTo("default");
		assertThat(config.getCredentials()).containsEntry(KubeConfig.CRED_TOKEN_KEY, "abc.def-ghi_jkl");
		assertThat(Kubeconfigs.connection(yaml).caPem()).isEqualTo(ca);
		assertThat(Config.fromConfig(new StringReader(yaml)).getBasePath()).isEqualTo("https://127.0.0.1:41234");
	}

	@Test
	void rejectsAKubeconfigWithoutInlineCa() {
		String yaml = """
				apiVersion: v1
				kind: Config
				clusters:
				- name: c
				  cluster:
				    server: https://127.0.0.1:6443
				    certificate-authority: /etc/ca.crt
				contexts:
				- name: c
				  context: {cluster: c, user: u}
				users:
				- name: u
				  user: {token: t}
				current-context: c
				""";

		assertThatIllegalArgumentException().isThrownBy(() -> Kubeconfigs.connection(yaml))
			.withMessage("kubeconfig has no certificate-authority-data for context c");
	}

	static String resource(String name) throws IOException {
		try (InputStream in = KubeconfigsTests.class.getResourceAsStream("/" + name)) {
			assertThat(in).as(name).isNotNull();
			return new String(in.readAllBytes(), StandardCharsets.UTF_8);
		}
	}

}
