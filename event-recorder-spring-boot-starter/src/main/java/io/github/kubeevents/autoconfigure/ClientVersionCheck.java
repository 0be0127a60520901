package io.github.kubeevents.autoconfigure;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicBoolean;

import io.kubernetes.client.openapi.ApiClient;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Warns once when the Kubernetes Java client on the classpath is older than the one kube-events was built and
 * tested with. Other BOMs can silently downgrade it: Spring Cloud Kubernetes' BOM manages
 * {@code io.kubernetes:client-java} (24.0.0 on the Boot 4 line).
 *
 * <p>Thread-safe.
 */
final class ClientVersionCheck {

	/** The major version of client-java kube-events is built against. */
	static final int BUILT_WITH_MAJOR = 27;

	private static final String POM_PROPERTIES = "META-INF/maven/io.kubernetes/client-java-api/pom.properties";

	private static final Logger logger = LoggerFactory.getLogger(ClientVersionCheck.class);

	private static final AtomicBoolean checked = new AtomicBoolean();

	private ClientVersionCheck() {
	}

	/** Logs one WARN per JVM when the client is older than {@value #BUILT_WITH_MAJOR}. */
	static void warnIfOlderThanBuiltWith() {
		if (!checked.compareAndSet(false, true)) {
			return;
		}
		String version = clientVersion();
		if (isOlder(version)) {
			logger.warn("The Kubernetes Java client on the classpath is {}, older than the {}.x kube-events was built"
					+ " and tested with; another BOM (e.g. Spring Cloud Kubernetes') may manage io.kubernetes:client-java."
					+ " Import io.kubernetes:client-java {}.x or newer.", version, BUILT_WITH_MAJOR, BUILT_WITH_MAJOR);
		}
	}

	/**
	 * Whether {@code version} is known and older than {@value #BUILT_WITH_MAJOR}.
	 * @param version a version such as {@code 24.0.0}, or {@code null} when unknown
	 * @return {@code true} when older
	 */
	static boolean isOlder(@Nullable String version) {
		if (version == null) {
			return false;
		}
		int dot = version.indexOf('.');
		try {
			return Integer.parseInt((dot > 0) ? version.substring(0, dot) : version) < BUILT_WITH_MAJOR;
		}
		catch (NumberFormatException ex) {
			return false;
		}
	}

	/**
	 * The version of {@code client-java-api} on the classpath.
	 * @return e.g. {@code 27.0.0}, or {@code null} when it cannot be told
	 */
	static @Nullable String clientVersion() {
		ClassLoader loader = ApiClient.class.getClassLoader();
		try (InputStream in = (loader != null) ? loader.getResourceAsStream(POM_PROPERTIES) : null) {
			if (in == null) {
				return null;
			}
			Properties properties = new Properties();
			properties.load(in);
			return properties.getProperty("version");
		}
		catch (IOException ex) {
			return null;
		}
	}

}
