package io.github.kubeevents.test.cluster;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import okhttp3.Request;
import okhttp3.Response;

/**
 * Waiting until the processes of a {@link LocalControlPlane} are ready: etcd answers {@code /health} with
 * {@code "true"}; kube-apiserver has written a complete serving certificate, answers {@code /readyz} with 200 and
 * has created namespace {@code default}. Every wait polls until a {@link Waits#deadline} and fails at once when the
 * process it waits for has exited; the exception says what was awaited and what the last answer was. Stateless.
 */
final class ControlPlaneReadiness {

	private ControlPlaneReadiness() {
	}

	/**
	 * Waits until etcd is healthy.
	 * @param etcd the process
	 * @param url etcd's client URL
	 * @param deadline from {@link Waits#deadline}
	 * @throws IllegalStateException when it exits, the deadline passes or the thread is interrupted
	 */
	static void awaitEtcd(Process etcd, String url, long deadline) {
		HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
		HttpRequest health = HttpRequest.newBuilder(URI.create(url + "/health"))
			.timeout(Duration.ofSeconds(2))
			.build();
		String last = "no answer";
		while (true) {
			ProcessControl.requireAlive(etcd, "etcd");
			try {
				HttpResponse<String> r = http.send(health, HttpResponse.BodyHandlers.ofString());
				if (r.statusCode() == 200 && r.body().contains("\"true\"")) {
					return;
				}
				last = r.statusCode() + " " + r.body();
			}
			catch (IOException ex) {
				last = ex.toString();
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new IllegalStateException("interrupted while waiting for etcd", ex);
			}
			Waits.pause(deadline, "etcd at " + url + " to be healthy (last: " + last + ")");
		}
	}

	/**
	 * Waits until kube-apiserver has written its serving certificate (a non-empty file).
	 * @param apiServer the process
	 * @param crt the certificate file
	 * @param deadline from {@link Waits#deadline}
	 * @throws IllegalStateException when it exits or the deadline passes
	 */
	static void awaitCertificateFile(Process apiServer, Path crt, long deadline) {
		while (!Files.isRegularFile(crt) || sizeOf(crt) == 0) {
			ProcessControl.requireAlive(apiServer, "kube-apiserver");
			Waits.pause(deadline, "kube-apiserver to write " + crt);
		}
	}

	/**
	 * Reads a certificate file once it holds a complete PEM block (it may be observed while it is being written).
	 * @param crt the certificate file
	 * @param deadline from {@link Waits#deadline}
	 * @return the PEM (US-ASCII)
	 * @throws IllegalStateException when the deadline passes
	 */
	static byte[] readCertificate(Path crt, long deadline) {
		while (true) {
			try {
				String pem = Files.readString(crt);
				if (pem.contains("-----END CERTIFICATE-----")) {
					return pem.getBytes(StandardCharsets.US_ASCII);
				}
			}
			catch (IOException ex) {
				// retry
			}
			Waits.pause(deadline, "a complete certificate in " + crt);
		}
	}

	/**
	 * Waits until kube-apiserver answers {@code /readyz} with 200 to the admin, then until namespace {@code default}
	 * exists.
	 * @param apiServer the process
	 * @param cluster the cluster it serves (URL, CA and admin token; its certificate must be known)
	 * @param deadline from {@link Waits#deadline}
	 * @throws IllegalStateException when it exits or the deadline passes
	 */
	static void awaitApiServer(Process apiServer, KubernetesTestCluster cluster, long deadline) {
		ApiClient admin = cluster.adminClient();
		String last = "no answer";
		while (true) {
			ProcessControl.requireAlive(apiServer, "kube-apiserver");
			Request readyz = new Request.Builder().url(cluster.baseUrl() + "/readyz")
				.header("Authorization", "Bearer " + cluster.adminToken())
				.build();
			try (Response r = admin.getHttpClient().newCall(readyz).execute()) {
				String body = r.body().string();
				if (r.code() == 200) {
					break;
				}
				last = r.code() + " " + body.lines().filter((l) -> l.contains("failed")).toList();
			}
			catch (IOException ex) {
				last = ex.toString();
			}
			Waits.pause(deadline, "kube-apiserver " + cluster.baseUrl() + "/readyz (last: " + last + ")");
		}
		CoreV1Api core = new CoreV1Api(admin);
		while (true) {
			ProcessControl.requireAlive(apiServer, "kube-apiserver");
			try {
				core.readNamespace("default").execute();
				return;
			}
			catch (ApiException ex) {
				last = "readNamespace(default): " + ex.getCode() + " " + ex.getMessage();
			}
			Waits.pause(deadline, "namespace 'default' to exist (last: " + last + ")");
		}
	}

	private static long sizeOf(Path file) {
		try {
			return Files.size(file);
		}
		catch (IOException ex) {
			return 0;
		}
	}

}
