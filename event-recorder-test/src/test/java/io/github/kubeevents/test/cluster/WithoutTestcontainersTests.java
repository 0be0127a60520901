package io.github.kubeevents.test.cluster;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.util.ClientBuilder;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.platform.commons.support.AnnotationSupport;
import org.opentest4j.TestAbortedException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Testcontainers is an optional dependency: a user without it must get a clear "not on the classpath" answer from
 * backend selection, not a {@link NoClassDefFoundError}. Checked by loading this module's classes in a class loader
 * that has only the module and JUnit's API (no Testcontainers, no docker-java).
 */
class WithoutTestcontainersTests {

	@Test
	void k3sSelectionSaysTestcontainersIsMissing() throws Exception {
		try (URLClassLoader loader = isolatedLoader()) {
			assertThatExceptionOfType(ClassNotFoundException.class)
				.isThrownBy(() -> loader.loadClass("org.testcontainers.k3s.K3sContainer"));
			Class<?> extension = Class.forName(TestClusterExtension.class.getName(), true, loader);
			assertThat(extension.getClassLoader()).isSameAs(loader);
			@SuppressWarnings({ "unchecked", "rawtypes" })
			Object k3s = Enum.valueOf((Class) loader.loadClass(TestClusterBackend.class.getName()), "K3S");
			Method select = extension.getDeclaredMethod("select", k3s.getClass(), Set.class);
			select.setAccessible(true);

			Object selection = select.invoke(null, k3s, Set.of());

			assertThat(accessor(selection, "outcome")).hasToString("MISSING");
			assertThat(accessor(selection, "reason"))
				.isEqualTo("org.testcontainers:testcontainers-k3s is not on the test classpath");
		}
	}

	/**
	 * The classes that call into Testcontainers only on the K3s path ({@code TestClusterInstances} starts a
	 * {@link K3sTestCluster}, {@code MachineEnvironment} asks Testcontainers for Docker) load, link and initialize
	 * without it: the JVM resolves those calls when they run, not before.
	 */
	@Test
	void classesCallingTestcontainersOnTheK3sPathLoadWithoutIt() throws Exception {
		try (URLClassLoader loader = isolatedLoader()) {
			for (Class<?> type : List.of(TestClusterInstances.class, MachineEnvironment.class)) {
				Class<?> loaded = Class.forName(type.getName(), true, loader);
				assertThat(loaded.getClassLoader()).isSameAs(loader);
				for (Method method : loaded.getDeclaredMethods()) {
					assertThat(method.getName()).isNotNull(); // reflection data of every method resolves
				}
			}
			assertThatExceptionOfType(ClassNotFoundException.class)
				.isThrownBy(() -> loader.loadClass("org.testcontainers.DockerClientFactory"));
		}
	}

	/** Starting a K3s cluster without Testcontainers is the report that says what to add, not a linkage error. */
	@Test
	void startingK3sSaysWhatToAdd() throws Exception {
		try (URLClassLoader loader = isolatedLoader(ClientBuilder.class, ApiClient.class)) {
			Class<?> cluster = Class.forName(KubernetesTestCluster.class.getName(), true, loader);
			@SuppressWarnings({ "unchecked", "rawtypes" })
			Object k3s = Enum.valueOf((Class) loader.loadClass(TestClusterBackend.class.getName()), "K3S");
			Method start = cluster.getMethod("start", k3s.getClass());

			assertThatExceptionOfType(InvocationTargetException.class).isThrownBy(() -> start.invoke(null, k3s))
				.satisfies((ex) -> assertThat(ex.getCause().getClass().getName())
					.isEqualTo(TestClusterUnavailableException.class.getName()))
				.satisfies((ex) -> assertThat(ex.getCause().getMessage()).isEqualTo("No K3s cluster:"
						+ " org.testcontainers:testcontainers-k3s is not on the test classpath." + System.lineSeparator()
						+ "Action: Put org.testcontainers:testcontainers-k3s on the classpath and start a Docker engine"
						+ " that can run privileged containers."));
		}
	}

	/**
	 * This module's classes, JUnit's API and SLF4J's (a dependency of this module), nothing else (no Testcontainers,
	 * no docker-java).
	 * @param more classes whose jars are added (client-java, a dependency of this module)
	 */
	private static URLClassLoader isolatedLoader(Class<?>... more) {
		URL[] urls = Stream.concat(Stream.of(TestClusterExtension.class, Assumptions.class, AnnotationSupport.class,
				TestAbortedException.class, org.slf4j.LoggerFactory.class), Stream.of(more))
			.map((c) -> c.getProtectionDomain().getCodeSource().getLocation())
			.distinct()
			.toArray(URL[]::new);
		return new URLClassLoader("without-testcontainers", urls, ClassLoader.getPlatformClassLoader());
	}

	private static Object accessor(Object record, String name) throws ReflectiveOperationException {
		Method m = record.getClass().getDeclaredMethod(name);
		m.setAccessible(true);
		return m.invoke(record);
	}

}
