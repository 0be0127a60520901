package io.github.kubeevents.autoconfigure;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.github.kubeevents.testsupport.TestClusters;
import okhttp3.Interceptor;
import okhttp3.MediaType;
import okhttp3.Protocol;
import okhttp3.Request;
import okhttp3.Response;
import okhttp3.ResponseBody;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIOException;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Tests for {@link ClusterConfig}.
 */
class ClusterConfigTests {

	@TempDir
	Path tmp;

	@Test
	void kubeconfigClientUsesTheCurrentContextsServerAndAReadTimeout() throws IOException {
		Path config = TestClusters.writeKubeconfig(this.tmp.resolve("config"), "https://10.1.2.3:6443");
		ClusterConfig cluster = ClusterConfig.kubeconfig(ClusterConfig.Source.HOME_KUBECONFIG, config);
		assertThat(cluster.createApiClient().getBasePath()).isEqualTo("https://10.1.2.3:6443");
		assertThat(cluster.createApiClient().getReadTimeout()).isEqualTo(30_000);
		assertThat(cluster.description()).isEqualTo("kubeconfig " + config);
	}

	@Test
	void kubeconfigFromTheEnvironmentSaysSo() throws IOException {
		Path config = TestClusters.writeKubeconfig(this.tmp.resolve("config"), "https://10.1.2.3:6443");
		assertThat(ClusterConfig.kubeconfig(ClusterConfig.Source.KUBECONFIG_ENV, config).description())
			.isEqualTo("kubeconfig " + config + " (from $KUBECONFIG)");
	}

	@Test
	void inClusterClientUsesTheServiceAddressAndAReadTimeout() throws IOException {
		Path serviceAccount = TestClusters.writeServiceAccount(this.tmp.resolve("sa"));
		ClusterConfig cluster = ClusterConfig.inCluster(serviceAccount, "10.0.0.1", "443");
		assertThat(cluster.createApiClient().getBasePath()).isEqualTo("https://10.0.0.1:443");
		assertThat(cluster.createApiClient().getReadTimeout()).isEqualTo(30_000);
		assertThat(cluster.description()).isEqualTo("in-cluster service account " + serviceAccount);
	}

	@Test
	void inClusterClientBracketsIpv6Hosts() throws IOException {
		Path serviceAccount = TestClusters.writeServiceAccount(this.tmp.resolve("sa"));
		assertThat(ClusterConfig.inCluster(serviceAccount, "fd00::1", "6443").createApiClient().getBasePath())
			.isEqualTo("https://[fd00::1]:6443");
	}

	@Test
	void inClusterClientWithBadPortFails() throws IOException {
		Path serviceAccount = TestClusters.writeServiceAccount(this.tmp.resolve("sa"));
		assertThatIOException()
			.isThrownBy(() -> ClusterConfig.inCluster(serviceAccount, "10.0.0.1", "https").createApiClient())
			.withMessage("invalid $KUBERNETES_SERVICE_HOST/PORT 10.0.0.1:https");
	}

	@Test
	void kubeconfigWithoutServerFails() throws IOException {
		Path config = Files.writeString(this.tmp.resolve("config"), "apiVersion: v1\nkind: Config\n");
		assertThatIOException()
			.isThrownBy(() -> ClusterConfig.kubeconfig(ClusterConfig.Source.KUBECONFIG_ENV, config).createApiClient())
			.withMessage("No server in kubeconfig");
	}

	@Test
	void inClusterConfigurationNeedsHostAndPort() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new ClusterConfig(ClusterConfig.Source.IN_CLUSTER, this.tmp, null, "443"))
			.withMessage("an in-cluster configuration needs the service host and port");
	}

	@Test
	void kubeconfigTokenFileIsReadAgainAfterA401AndTheRequestSentOnceMore() throws Exception {
		Path tokenFile = Files.writeString(this.tmp.resolve("token"), "t1\n");
		Path config = writeKubeconfig("tokenFile: " + tokenFile);
		ApiClient client = ClusterConfig.kubeconfig(ClusterConfig.Source.KUBECONFIG_ENV, config).createApiClient();
		Authorizations server = Authorizations.attachTo(client, "t1");
		assertThat(server.get(client)).isEqualTo(200);

		Files.writeString(tokenFile, "t2\n");
		server.accept("t2");
		assertThat(server.get(client)).isEqualTo(200);
		assertThat(server.get(client)).isEqualTo(200);

		assertThat(server.seen()).containsExactly("Bearer t1", "Bearer t1", "Bearer t2", "Bearer t2");
	}

	@Test
	void kubeconfigExecPluginRunsAgainAfterA401Only() throws Exception {
		Path tokenFile = Files.writeString(this.tmp.resolve("token"), "t1");
		Path runs = this.tmp.resolve("runs");
		Path plugin = Files.writeString(this.tmp.resolve("plugin.sh"), """
				#!/bin/sh
				echo run >> '%s'
				printf '{"apiVersion":"client.authentication.k8s.io/v1beta1","kind":"ExecCredential","status":{"token":"%%s"}}' "$(cat '%s')"
				""".formatted(runs, tokenFile));
		Files.setPosixFilePermissions(plugin, PosixFilePermissions.fromString("rwx------"));
		Path config = writeKubeconfig("""
				exec:
				      apiVersion: client.authentication.k8s.io/v1beta1
				      command: %s
				      interactiveMode: Never""".formatted(plugin));
		ApiClient client = ClusterConfig.kubeconfig(ClusterConfig.Source.KUBECONFIG_ENV, config).createApiClient();
		// the token the client was built with is used: the plugin ran once
		assertThat(Files.readAllLines(runs)).hasSize(1);
		Authorizations server = Authorizations.attachTo(client, "t1");
		assertThat(server.get(client)).isEqualTo(200);
		assertThat(Files.readAllLines(runs)).hasSize(1);

		Files.writeString(tokenFile, "t2");
		server.accept("t2");
		assertThat(server.get(client)).isEqualTo(200);
		assertThat(server.get(client)).isEqualTo(200);

		assertThat(server.seen()).containsExactly("Bearer t1", "Bearer t1", "Bearer t2", "Bearer t2");
		assertThat(Files.readAllLines(runs)).hasSize(2);
	}

	@Test
	void kubeconfigStaticTokenIsSentOnceAndNotRepeatedAfterA401() throws Exception {
		Path config = TestClusters.writeKubeconfig(this.tmp.resolve("config"), "https://10.1.2.3:6443");
		ApiClient client = ClusterConfig.kubeconfig(ClusterConfig.Source.HOME_KUBECONFIG, config).createApiClient();
		Authorizations server = Authorizations.attachTo(client, "test-token");
		assertThat(server.get(client)).isEqualTo(200);

		server.accept("another");
		assertThat(server.get(client)).isEqualTo(401);

		assertThat(server.seen()).containsExactly("Bearer test-token", "Bearer test-token");
	}

	@Test
	void inClusterTokenIsReadAgainAfterA401AndTheRequestSentOnceMore() throws Exception {
		Path serviceAccount = TestClusters.writeServiceAccount(this.tmp.resolve("sa"));
		ApiClient client = ClusterConfig.inCluster(serviceAccount, "10.0.0.1", "443").createApiClient();
		Authorizations server = Authorizations.attachTo(client, "test-token");
		assertThat(server.get(client)).isEqualTo(200);

		Files.writeString(serviceAccount.resolve("token"), "rotated");
		server.accept("rotated");
		assertThat(server.get(client)).isEqualTo(200);

		assertThat(server.seen()).containsExactly("Bearer test-token", "Bearer test-token", "Bearer rotated");
	}

	private Path writeKubeconfig(String user) throws IOException {
		return Files.writeString(this.tmp.resolve("config"), """
				apiVersion: v1
				kind: Config
				clusters:
				- name: test
				  cluster:
				    server: https://10.1.2.3:6443
				contexts:
				- name: test
				  context:
				    cluster: test
				    user: test
				current-context: test
				users:
				- name: test
				  user:
				    %s
				""".formatted(user));
	}

	/**
	 * The API server's authentication, as the last interceptor of a client (nothing goes on the network): 200 for
	 * an accepted bearer token, else 401; records each request's Authorization header.
	 */
	private static final class Authorizations implements Interceptor {

		private final List<String> seen = new CopyOnWriteArrayList<>();

		private volatile Set<String> accepted;

		private Authorizations(String accepted) {
			this.accepted = Set.of(accepted);
		}

		static Authorizations attachTo(ApiClient client, String accepted) {
			Authorizations server = new Authorizations(accepted);
			client.setHttpClient(client.getHttpClient().newBuilder().addInterceptor(server).build());
			return server;
		}

		void accept(String token) {
			this.accepted = Set.of(token);
		}

		List<String> seen() {
			return List.copyOf(this.seen);
		}

		/** A generated request (with whatever authentication the client adds), sent on the client's HTTP client. */
		int get(ApiClient client) throws Exception {
			Request request = new CoreV1Api(client).getAPIResources().buildCall(null).request();
			try (Response response = client.getHttpClient().newCall(request).execute()) {
				return response.code();
			}
		}

		@Override
		public Response intercept(Chain chain) {
			Request request = chain.request();
			List<String> headers = request.headers("Authorization");
			this.seen.addAll(headers);
			boolean ok = headers.size() == 1 && this.accepted.contains(headers.get(0).substring("Bearer ".length()));
			return new Response.Builder().request(request)
				.protocol(Protocol.HTTP_1_1)
				.code(ok ? 200 : 401)
				.message(ok ? "OK" : "Unauthorized")
				.body(ResponseBody.create("{}", MediaType.get("application/json")))
				.build();
		}

	}

}
