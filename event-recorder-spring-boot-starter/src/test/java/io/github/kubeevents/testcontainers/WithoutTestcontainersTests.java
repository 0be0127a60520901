package io.github.kubeevents.testcontainers;

import java.io.File;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.List;
import java.util.function.Predicate;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Testcontainers and {@code spring-boot-testcontainers} are optional dependencies of the starter: an application
 * without them must start, and Spring Boot must skip the K3s {@code ConnectionDetailsFactory} registered in
 * {@code META-INF/spring.factories} rather than fail. Checked in class loaders built from the test class path minus
 * those jars (a {@code FilteredClassLoader} would not do: the factory's superclass would still be found through its
 * parent).
 */
class WithoutTestcontainersTests {

	private static final String FACTORY = K3sContainerConnectionDetailsFactory.class.getName();

	private static final String BOOT_OTLP_FACTORY = "org.springframework.boot.micrometer.metrics.testcontainers.otlp"
			+ ".OpenTelemetryMetricsContainerConnectionDetailsFactory";

	@Test
	void applicationStartsWithoutTestcontainersAndBootSkipsTheK3sFactory() throws Exception {
		try (URLClassLoader loader = isolated((entry) -> !entry.contains("testcontainers")
				&& !entry.contains(File.separator + "docker-java"))) {
			assertThatExceptionOfType(ClassNotFoundException.class)
				.isThrownBy(() -> loader.loadClass("org.testcontainers.containers.Container"));
			assertThatExceptionOfType(ClassNotFoundException.class).isThrownBy(() -> loader
				.loadClass("org.springframework.boot.testcontainers.service.connection.ContainerConnectionDetailsFactory"));

			List<String> facts = runIsolated(loader);

			String missingBase = " (ClassNotFoundException:"
					+ " org.springframework.boot.testcontainers.service.connection.ContainerConnectionDetailsFactory)";
			assertThat(facts).startsWith("started", "connection details beans: kubeEventsConnectionDetails", "sink: log",
					"ConnectionDetailsFactories created")
				.contains("not loaded: " + FACTORY + missingBase)
				// Spring Boot's own factories in optional modules are skipped the same way
				.contains("not loaded: " + BOOT_OTLP_FACTORY + missingBase)
				.noneMatch((fact) -> fact.startsWith("loaded: "));
		}
	}

	@Test
	void withoutTheK3sModuleTheFactoryLoadsButAnswersNothing() throws Exception {
		try (URLClassLoader loader = isolated((entry) -> !entry.contains("testcontainers-k3s"))) {
			assertThatExceptionOfType(ClassNotFoundException.class)
				.isThrownBy(() -> loader.loadClass("org.testcontainers.k3s.K3sContainer"));
			loader.loadClass("org.testcontainers.containers.Container");

			List<String> facts = runIsolated(loader);

			assertThat(facts).startsWith("started", "connection details beans: kubeEventsConnectionDetails", "sink: log",
					"ConnectionDetailsFactories created")
				.contains("loaded: " + FACTORY + ", answers for a source: null")
				.noneMatch((fact) -> fact.startsWith("not loaded: " + FACTORY));
		}
	}

	@SuppressWarnings("unchecked")
	private static List<String> runIsolated(ClassLoader loader) throws Exception {
		Thread thread = Thread.currentThread();
		ClassLoader previous = thread.getContextClassLoader();
		thread.setContextClassLoader(loader);
		try {
			Class<?> scenarios = Class.forName(IsolatedScenarios.class.getName(), true, loader);
			assertThat(scenarios.getClassLoader()).isSameAs(loader);
			return (List<String>) scenarios.getMethod("run").invoke(null);
		}
		finally {
			thread.setContextClassLoader(previous);
		}
	}

	private static URLClassLoader isolated(Predicate<String> keep) {
		String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
		URL[] urls = Stream.of(classPath.split(File.pathSeparator))
			.filter((entry) -> !entry.isBlank())
			.filter(keep)
			.map(WithoutTestcontainersTests::url)
			.toArray(URL[]::new);
		return new URLClassLoader("isolated", urls, ClassLoader.getPlatformClassLoader());
	}

	private static URL url(String entry) {
		try {
			return new File(entry).toURI().toURL();
		}
		catch (MalformedURLException ex) {
			throw new IllegalArgumentException(entry, ex);
		}
	}

}
