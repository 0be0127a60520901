package io.github.kubeevents.test.cluster;

import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.Set;
import java.util.stream.Stream;

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
		URL[] urls = Stream.of(TestClusterExtension.class, Assumptions.class, AnnotationSupport.class,
				TestAbortedException.class)
			.map((c) -> c.getProtectionDomain().getCodeSource().getLocation())
			.distinct()
			.toArray(URL[]::new);
		try (URLClassLoader loader = new URLClassLoader("without-testcontainers", urls,
				ClassLoader.getPlatformClassLoader())) {
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

	private static Object accessor(Object record, String name) throws ReflectiveOperationException {
		Method m = record.getClass().getDeclaredMethod(name);
		m.setAccessible(true);
		return m.invoke(record);
	}

}
