package io.github.kubeevents.autoconfigure;

import java.io.IOException;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Pattern;

import io.kubernetes.client.openapi.ApiClient;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.NullSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.slf4j.LoggerFactory;

import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link ClientVersionCheck}.
 */
@ExtendWith(OutputCaptureExtension.class)
class ClientVersionCheckTests {

	private static final String WARNING = "The Kubernetes Java client on the classpath is 24.0.0, older than the 27.x"
			+ " kube-events was built and tested with";

	@TempDir
	Path tmp;

	@Test
	void olderMajorIsOlder() {
		assertThat(ClientVersionCheck.isOlder("24.0.0")).isTrue();
		assertThat(ClientVersionCheck.isOlder("26.0.1")).isTrue();
	}

	@ParameterizedTest
	@NullSource
	@ValueSource(strings = { "27.0.0", "28.1.0", "27", "garbage", "", ".1", "v24.0.0" })
	void sameOrNewerOrUnknownIsNotOlder(String version) {
		assertThat(ClientVersionCheck.isOlder(version)).isFalse();
	}

	@Test
	void readsTheVersionOfTheClientOnTheClasspath() {
		assertThat(ClientVersionCheck.clientVersion()).isEqualTo("27.0.0");
	}

	@Test
	void clientThisBuildUsesIsNotWarnedAbout(CapturedOutput output) {
		ClientVersionCheck.warnIfOlderThanBuiltWith();
		assertThat(output).doesNotContain("The Kubernetes Java client on the classpath is");
	}

	@Test
	void olderClientIsWarnedAboutOncePerJvm(CapturedOutput output) throws Exception {
		// an isolated class loader whose client-java-api says it is 24.0.0, with its own SLF4J and Logback
		Path fake = this.tmp.resolve("fake");
		Path properties = fake.resolve("META-INF/maven/io.kubernetes/client-java-api/pom.properties");
		Files.createDirectories(properties.getParent());
		Files.writeString(properties, "groupId=io.kubernetes\nartifactId=client-java-api\nversion=24.0.0\n");
		try (URLClassLoader loader = new URLClassLoader(new URL[] { fake.toUri().toURL(), location(ClientVersionCheck.class),
				location(ApiClient.class), location(LoggerFactory.class), location(ch.qos.logback.classic.Logger.class),
				location(ch.qos.logback.core.Appender.class) }, ClassLoader.getPlatformClassLoader())) {
			Method warn = loader.loadClass(ClientVersionCheck.class.getName()).getDeclaredMethod("warnIfOlderThanBuiltWith");
			warn.setAccessible(true);
			warn.invoke(null);
			warn.invoke(null);
		}
		assertThat(Pattern.compile(Pattern.quote(WARNING)).matcher(output.getOut()).results().count()).isOne();
		assertThat(output).contains(WARNING + "; another BOM (e.g. Spring Cloud Kubernetes') may manage"
				+ " io.kubernetes:client-java. Import io.kubernetes:client-java 27.x or newer.");
	}

	private static URL location(Class<?> type) throws IOException {
		return type.getProtectionDomain().getCodeSource().getLocation();
	}

}
