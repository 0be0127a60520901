package io.github.kubeevents.test.cluster;

import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

import io.kubernetes.client.util.KubeConfig;

/** Writes and reads the few kubeconfig fields the clusters need. Stateless. */
final class Kubeconfigs {

	private Kubeconfigs() {
	}

	/** Server URL and CA PEM of a kubeconfig's current context. */
	record Connection(String server, byte[] caPem) {
	}

	/**
	 * A kubeconfig with one cluster, one token user and one context (namespace {@code default}), current.
	 * @param name name of the cluster and the context
	 * @param server API server URL
	 * @param caPem PEM the client must trust
	 * @param user name of the user entry (only a label)
	 * @param token bearer token
	 * @return YAML
	 */
	static String render(String name, String server, byte[] caPem, String user, String token) {
		return """
				apiVersion: v1
				kind: Config
				clusters:
				- name: %1$s
				  cluster:
				    server: %2$s
				    certificate-authority-data: %3$s
				users:
				- name: %4$s
				  user:
				    token: "%5$s"
				contexts:
				- name: %1$s
				  context:
				    cluster: %1$s
				    user: %4$s
				    namespace: default
				current-context: %1$s
				""".formatted(name, server, Base64.getEncoder().encodeToString(caPem), user, token);
	}

	/**
	 * Server and CA data of the current context of a kubeconfig (such as K3s's {@code /etc/rancher/k3s/k3s.yaml} as
	 * Testcontainers rewrites it).
	 * @param yaml the kubeconfig
	 * @return the connection
	 * @throws IllegalArgumentException when the server or inline CA data is missing
	 */
	static Connection connection(String yaml) {
		KubeConfig config = KubeConfig.loadKubeConfig(new StringReader(yaml));
		String server = config.getServer();
		String ca = config.getCertificateAuthorityData();
		if (server == null || server.isBlank()) {
			throw new IllegalArgumentException("kubeconfig has no server for context " + config.getCurrentContext());
		}
		if (ca == null || ca.isBlank()) {
			throw new IllegalArgumentException(
					"kubeconfig has no certificate-authority-data for context " + config.getCurrentContext());
		}
		byte[] pem = Base64.getDecoder().decode(ca.strip());
		if (!new String(pem, StandardCharsets.US_ASCII).contains("-----BEGIN CERTIFICATE-----")) {
			throw new IllegalArgumentException("certificate-authority-data is not a PEM certificate");
		}
		return new Connection(server.endsWith("/") ? server.substring(0, server.length() - 1) : server, pem);
	}

}
